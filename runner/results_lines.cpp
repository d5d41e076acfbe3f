#include "runner/results_lines.hpp"

#include <optional>

#include "core/error.hpp"
#include "core/op_table.hpp"

namespace runner {
namespace {

using case_sources::CaseData;
using case_sources::PlannedCase;
using comparison::Mismatch;

nlohmann::json mismatch_json(const comparison::Mismatch& m) {
    nlohmann::json j = {{"index", m.index}, {"category", m.category}, {"a", m.a},
                        {"b", m.b},         {"expected", m.expected}, {"actual", m.actual}};
    if (!m.expected_bits.empty()) {
        j["a_bits"] = m.a_bits;
        j["b_bits"] = m.b_bits;
        j["expected_bits"] = m.expected_bits;
        j["actual_bits"] = m.actual_bits;
    }
    return j;
}

// What a result adds to a line: categories, message, mismatches, options that let it pass.
void add_result(nlohmann::json& j, const CaseResult& result) {
    if (!result.categories.empty()) j["categories"] = result.categories;
    if (!result.message.empty()) j["message"] = result.message;
    if (!result.mismatches.empty()) {
        j["mismatches"] = nlohmann::json::array();
        for (const comparison::Mismatch& m : result.mismatches)
            j["mismatches"].push_back(mismatch_json(m));
    }
    if (!result.allowances.empty()) j["allowed_by"] = result.allowances;
    if (!result.declared.empty()) j["declared"] = result.declared;
}

nlohmann::json minimal_json(const ShrinkOutcome& m) {
    nlohmann::json j = {{"case", m.id},
                        {"shapes", {m.data.a.shape, m.data.b.shape}},
                        {"attributes", m.data.attributes},
                        {"status", results::name(m.result.status)},
                        {"tries", m.tries}};
    add_result(j, m.result);
    return j;
}

template <class T>
T field(const nlohmann::json& j, const char* key) {
    return j.at(key).get<T>();
}

std::optional<std::string> optional_text(const nlohmann::json& j, const char* key) {
    if (j.at(key).is_null()) return std::nullopt;
    return j.at(key).get<std::string>();
}

}  // namespace

nlohmann::json case_line(const CaseRecord& r) {
    const case_sources::PlannedCase& p = *r.planned;
    const CaseResult& result = *r.result;
    nlohmann::json j = {{"case", p.id},
                        {"source", p.source},
                        {"op", p.op ? p.op->id() : ""},
                        {"dtype", core::name(p.dtype)},
                        {"shapes", nlohmann::json::array()},
                        {"attributes", nlohmann::json::object()},
                        {"valid", r.data ? r.data->valid : p.valid},
                        {"graph_form", p.graph_form},
                        {"status", results::name(result.status)},
                        {"seconds", result.seconds}};
    if (r.data) {
        j["shapes"] = {r.data->a.shape, r.data->b.shape};
        j["attributes"] = r.data->attributes;
        if (r.data->b.type != r.data->a.type) j["dtype_b"] = core::name(r.data->b.type);
        if (!r.data->note.empty()) j["note"] = r.data->note;
    }
    add_result(j, result);
    if (r.minimal) {
        j["shrunk"] = r.minimal->id;
        j["minimal"] = minimal_json(*r.minimal);
    }
    if (!r.files.empty()) j["files"] = r.files;
    if (result.undefined_refused) j["undefined_refused"] = result.undefined_refused;
    return j;
}

nlohmann::json options_json(const RunOptions& o) {
    return {
        {"backend", o.backend},
        {"backend_cmd", o.backend_cmd},
        {"cases", o.cases},
        {"ops", o.ops},
        {"dtypes", o.dtypes},
        {"sources", o.sources},
        {"case_ids", o.case_ids},
        {"onnx_dirs", o.onnx_dirs},
        {"shard", o.shard},
        {"seed", o.seed},
        {"count", o.count},
        {"shrink_budget", o.shrink_budget},
        {"timeout_seconds", o.timeout_seconds},
        {"nan", o.nan},
        {"ulp", o.ulp},
        {"allow_ftz", o.allow_ftz},
        {"undefined_refusal", o.undefined_refusal},
        {"graph_forms", o.graph_forms},
        {"expected", o.expected ? nlohmann::json(*o.expected) : nlohmann::json()},
        {"profile", o.profile ? nlohmann::json(*o.profile) : nlohmann::json()},
        {"platform", o.platform},
        {"write_expected", o.write_expected ? nlohmann::json(*o.write_expected) : nlohmann::json()},
        {"label", o.label}};
}

RunOptions options_from_json(const nlohmann::json& j) {
    using Texts = std::vector<std::string>;
    try {
        RunOptions o;
        o.backend = field<std::string>(j, "backend");
        o.backend_cmd = field<std::string>(j, "backend_cmd");
        o.cases = field<Texts>(j, "cases");
        o.ops = field<Texts>(j, "ops");
        o.dtypes = field<Texts>(j, "dtypes");
        o.sources = field<Texts>(j, "sources");
        o.case_ids = field<Texts>(j, "case_ids");
        o.onnx_dirs = field<Texts>(j, "onnx_dirs");
        o.shard = field<std::string>(j, "shard");
        o.seed = field<std::uint64_t>(j, "seed");
        o.count = field<int>(j, "count");
        o.shrink_budget = field<int>(j, "shrink_budget");
        o.timeout_seconds = field<double>(j, "timeout_seconds");
        o.nan = field<std::string>(j, "nan");
        o.ulp = field<int>(j, "ulp");
        o.allow_ftz = field<bool>(j, "allow_ftz");
        o.undefined_refusal = j.value("undefined_refusal", "rerun");  // not in older run lines
        o.graph_forms = j.value("graph_forms", std::vector<std::string>{"runtime"});
        o.expected = optional_text(j, "expected");
        if (j.contains("profile")) o.profile = optional_text(j, "profile");
        // older run lines have only "isa_cap"
        o.platform = j.value("platform", j.value("isa_cap", "").empty() ? "host" : "avx2");
        o.write_expected = optional_text(j, "write_expected");
        o.label = field<std::string>(j, "label");
        return o;
    } catch (const nlohmann::json::exception& e) {
        throw core::Error(core::ErrorKind::input,
                          std::string("the run line's options are unreadable: ") + e.what());
    }
}

}  // namespace runner
