#include "results/results_line.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace results {
namespace {

using nlohmann::json;

// Counts of elements stay far from overflow when summed over millions of lines.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;

[[noreturn]] void wrong(const std::string& where, const char* what) {
    throw std::invalid_argument(where + " is not " + what);
}

std::int64_t integer_in(const json& v, const std::string& where, std::int64_t lo, std::int64_t hi,
                        const char* what) {
    // nlohmann's get<> casts floats and wide unsigned values: check before converting.
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi)) ||
        (!v.is_number_unsigned() && (v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)))
        wrong(where, what);
    return v.get<std::int64_t>();
}

void read(const json& v, const std::string& where, std::string& out) {
    if (!v.is_string()) wrong(where, "a string");
    out = v.get<std::string>();
}
void read(const json& v, const std::string& where, bool& out) {
    if (!v.is_boolean()) wrong(where, "true or false");
    out = v.get<bool>();
}
void read(const json& v, const std::string& where, double& out) {
    if (!v.is_number()) wrong(where, "a number");
    out = v.get<double>();
}
void read(const json& v, const std::string& where, int& out) {
    out = static_cast<int>(integer_in(v, where, std::numeric_limits<int>::min(),
                                      std::numeric_limits<int>::max(), "a 32-bit integer"));
}
void read(const json& v, const std::string& where, std::uint64_t& out) {
    if (!v.is_number_unsigned()) wrong(where, "an integer of at least 0");
    out = v.get<std::uint64_t>();
}
// A count (elements, calls, dimensions): an integer in [0, 2^40].
void read_count(const json& v, const std::string& where, std::int64_t& out) {
    out = integer_in(v, where, 0, kMaxCount, "a count");
}
void read(const json& v, const std::string& where, std::optional<std::string>& out) {
    if (v.is_null()) return out.reset();
    read(v, where, out.emplace());
}
template <class T>
void read(const json& v, const std::string& where, std::vector<T>& out) {
    if (!v.is_array()) wrong(where, "an array");
    out.clear();
    for (const json& item : v)
        read(item, where + " has an item that", out.emplace_back());
}
void read(const json& v, const std::string& where, std::set<std::string>& out) {
    std::vector<std::string> items;
    read(v, where, items);
    out = {items.begin(), items.end()};
}
void read(const json& v, const std::string& where, Attributes& out) {
    if (!v.is_object()) wrong(where, "an object");
    for (const auto& [key, value] : v.items())
        read(value, where + "." + key, out[key]);
}
void read_counts(const json& v, const std::string& where,
                 std::map<std::string, std::int64_t>& out) {
    if (!v.is_object()) wrong(where, "an object");
    for (const auto& [key, value] : v.items())
        read_count(value, where + "." + key, out[key]);
}
// A category's name, read back through comparison's table.
comparison::Category category_named(const std::string& name, const std::string& where) {
    const std::optional<comparison::Category> c = comparison::parse_category(name);
    if (!c)
        throw std::invalid_argument(where + " names '" + name +
                                    "', which is not a mismatch category (PROTOCOL.md section 11)");
    return *c;
}
void read(const json& v, const std::string& where, comparison::Category& out) {
    std::string name;
    read(v, where, name);
    out = category_named(name, where);
}
void read_counts(const json& v, const std::string& where, comparison::CategoryCounts& out) {
    std::map<std::string, std::int64_t> by_name;
    read_counts(v, where, by_name);
    for (const auto& [name, count] : by_name)
        out[category_named(name, where)] = count;
}
json categories_json(const comparison::CategoryCounts& counts) {
    json j = json::object();
    for (const auto& [category, count] : counts)
        j[std::string(comparison::name(category))] = count;
    return j;
}
void read_shapes(const json& v, const std::string& where, std::vector<Shape>& out) {
    if (!v.is_array()) wrong(where, "an array");
    for (const json& shape : v) {
        if (!shape.is_array()) wrong(where + " has an item that", "an array");
        Shape& s = out.emplace_back();
        for (const json& d : shape)
            read_count(d, where + " has a dimension that", s.emplace_back());
    }
}

// The members of one object, each read only when present.
struct Fields {
    const json& j;
    std::string where;

    Fields(const json& object, std::string place) : j(object), where(std::move(place)) {
        if (!j.is_object()) wrong(where.empty() ? "the line" : where, "an object");
    }
    std::string at(const char* key) const { return where.empty() ? key : where + "." + key; }
    template <class T>
    void get(const char* key, T& out) const {
        if (j.contains(key)) read(j[key], at(key), out);
    }
    void count(const char* key, std::int64_t& out) const {
        if (j.contains(key)) read_count(j[key], at(key), out);
    }
    template <class Counts>
    void counts(const char* key, Counts& out) const {
        if (j.contains(key)) read_counts(j[key], at(key), out);
    }
    template <class T>
    void need(const char* key, T& out) const {
        if (!j.contains(key)) throw std::invalid_argument("no field '" + at(key) + "'");
        read(j[key], at(key), out);
    }
};

json mismatch_json(const comparison::Mismatch& m) {
    json j = {{"index", m.index},
              {"category", comparison::name(m.category)},
              {"a", m.a},
              {"b", m.b},
              {"expected", m.expected},
              {"actual", m.actual}};
    if (!m.expected_bits.empty()) {
        j["a_bits"] = m.a_bits;
        j["b_bits"] = m.b_bits;
        j["expected_bits"] = m.expected_bits;
        j["actual_bits"] = m.actual_bits;
    }
    return j;
}

comparison::Mismatch mismatch_from_json(const json& j, const std::string& where) {
    const Fields f(j, where);
    comparison::Mismatch m{};
    m.index = -1;
    if (j.contains("index"))
        m.index = integer_in(j["index"], f.at("index"), -1,
                             std::numeric_limits<std::int64_t>::max(), "an integer");
    f.get("category", m.category);
    f.get("a", m.a);
    f.get("b", m.b);
    f.get("expected", m.expected);
    f.get("actual", m.actual);
    f.get("a_bits", m.a_bits);
    f.get("b_bits", m.b_bits);
    f.get("expected_bits", m.expected_bits);
    f.get("actual_bits", m.actual_bits);
    return m;
}

void add_verdict(json& j, const Verdict& v) {
    j["status"] = name(v.status);
    if (!v.categories.empty()) j["categories"] = categories_json(v.categories);
    if (!v.message.empty()) j["message"] = v.message;
    if (!v.mismatches.empty()) {
        j["mismatches"] = json::array();
        for (const comparison::Mismatch& m : v.mismatches)
            j["mismatches"].push_back(mismatch_json(m));
    }
    if (!v.allowed_by.empty()) j["allowed_by"] = v.allowed_by;
    if (!v.declared.empty()) j["declared"] = v.declared;
}

// A minimal case without a status has its case's (`fallback`).
Verdict verdict_from_json(const Fields& f, std::optional<Status> fallback = std::nullopt) {
    Verdict v;
    std::string status;
    if (fallback && !f.j.contains("status"))
        v.status = *fallback;
    else {
        f.need("status", status);
        const auto parsed = parse_status(status);
        if (!parsed) throw std::invalid_argument("unknown " + f.at("status") + " '" + status + "'");
        v.status = *parsed;
    }
    f.counts("categories", v.categories);
    f.get("message", v.message);
    if (f.j.contains("mismatches")) {
        if (!f.j["mismatches"].is_array()) wrong(f.at("mismatches"), "an array");
        for (const json& m : f.j["mismatches"])
            v.mismatches.push_back(mismatch_from_json(m, f.at("mismatches[]")));
    }
    f.get("allowed_by", v.allowed_by);
    f.counts("declared", v.declared);
    return v;
}

json minimal_json(const MinimalCase& m) {
    json j = {{"case", m.id}, {"shapes", m.shapes}, {"attributes", m.attributes}};
    add_verdict(j, m.verdict);
    j["tries"] = m.tries;
    j["shrink_seconds"] = m.seconds;
    if (!m.cut_short.empty()) j["cut_short"] = m.cut_short;
    return j;
}

MinimalCase minimal_from_json(const json& j, Status status) {
    const Fields f(j, "minimal");
    MinimalCase m;
    f.get("case", m.id);
    if (j.contains("shapes")) read_shapes(j["shapes"], f.at("shapes"), m.shapes);
    f.get("attributes", m.attributes);
    f.count("tries", m.tries);
    f.get("shrink_seconds", m.seconds);  // not in older lines
    f.get("cut_short", m.cut_short);
    if (!m.cut_short.empty() && m.cut_short != "tries" && m.cut_short != "seconds")
        throw std::invalid_argument(f.at("cut_short") + " is not \"tries\" or \"seconds\"");
    m.verdict = verdict_from_json(f, status);
    return m;
}

// The GPU as the hello stated it (backends/PROTOCOL.md section 9, item 20).
json gpu_json(const platform::GpuFacts& g) {
    json j = {
        {"api", g.api},          {"vendor", g.vendor},           {"architecture", g.architecture},
        {"device", g.device},    {"description", g.description}, {"fallback", g.fallback},
        {"features", g.features}};
    return j;
}

platform::GpuFacts gpu_from_json(const json& j, const std::string& where) {
    const Fields f(j, where);
    platform::GpuFacts g;
    f.need("api", g.api);
    f.get("vendor", g.vendor);
    f.get("architecture", g.architecture);
    f.get("device", g.device);
    f.get("description", g.description);
    f.get("fallback", g.fallback);
    f.get("features", g.features);
    if (g.api.empty()) throw std::invalid_argument(where + ".api is empty");
    return g;
}

json platform_json(const PlatformRecord& p) {
    json j = {{"os", p.os},
              {"arch", p.arch},
              {"cpu_vendor", p.cpu_vendor},
              {"cpu_model", p.cpu_model},
              {"cpu_features", p.cpu_features}};
    if (!p.isa_cap.empty()) j["isa_cap"] = p.isa_cap;
    if (!p.name.empty()) j["name"] = p.name;
    if (!p.emulator.empty()) j["emulator"] = p.emulator;
    if (p.gpu.present()) j["gpu"] = gpu_json(p.gpu);
    return j;
}

PlatformRecord platform_from_json(const json& j) {
    const Fields f(j, "run.platform");
    PlatformRecord p;
    f.get("os", p.os);
    f.get("arch", p.arch);
    f.get("cpu_vendor", p.cpu_vendor);
    f.get("cpu_model", p.cpu_model);
    f.get("cpu_features", p.cpu_features);
    f.get("isa_cap", p.isa_cap);
    f.get("name", p.name);
    f.get("emulator", p.emulator);
    if (f.j.contains("gpu")) p.gpu = gpu_from_json(f.j["gpu"], f.at("gpu"));
    return p;
}

constexpr std::array<std::pair<FileRole, std::string_view>, 3> kRoles{{
    {FileRole::profile, "profile"},
    {FileRole::profile_include, "profile_include"},
    {FileRole::expected, "expected"},
}};

json applied_json(const AppliedFile& a) {
    return {{"role", name(a.role)},
            {"path", a.path},
            {"fnv1a64", a.fnv1a64},
            {"from", a.adapter_default ? "adapter" : "option"}};
}

AppliedFile applied_from_json(const json& j) {
    const Fields f(j, "run.applied_files[]");
    AppliedFile a;
    std::string role;
    f.need("role", role);
    const auto known =
        std::find_if(kRoles.begin(), kRoles.end(), [&](const auto& r) { return r.second == role; });
    if (known == kRoles.end())
        wrong(f.at("role"), "\"profile\", \"profile_include\" or \"expected\"");
    a.role = known->first;
    f.need("path", a.path);
    f.need("fnv1a64", a.fnv1a64);
    std::string from;
    f.need("from", from);
    if (from != "adapter" && from != "option") wrong(f.at("from"), "\"adapter\" or \"option\"");
    a.adapter_default = from == "adapter";
    return a;
}

}  // namespace

std::string_view name(FileRole role) {
    for (const auto& [r, text] : kRoles)
        if (r == role) return text;
    return "";
}

BackendRecord backend_record(const json& j) {
    const Fields f(j, "run.backend");
    BackendRecord b;
    f.get("name", b.name);
    f.get("version", b.version);
    if (j.contains("ops")) {
        if (!j["ops"].is_object()) wrong(f.at("ops"), "an object");
        for (const auto& [op, types] : j["ops"].items())
            read(types, f.at("ops") + "." + op, b.ops[op]);
    }
    b.hello = j;
    return b;
}

namespace {

RecordedOptions options_from_json(const json& j) {
    const Fields f(j, "run.options");
    RecordedOptions o;
    f.need("backend", o.backend);
    f.need("backend_cmd", o.backend_cmd);
    f.need("cases", o.cases);
    f.need("ops", o.ops);
    f.need("dtypes", o.dtypes);
    f.need("sources", o.sources);
    f.need("case_ids", o.case_ids);
    f.need("onnx_dirs", o.onnx_dirs);
    f.need("shard", o.shard);
    f.need("seed", o.seed);
    f.need("count", o.count);
    f.need("shrink_budget", o.shrink_budget);
    f.get("shrink_seconds", o.shrink_seconds);  // not in older run lines
    f.need("timeout_seconds", o.timeout_seconds);
    f.need("nan", o.nan);
    f.need("ulp", o.ulp);
    f.need("allow_ftz", o.allow_ftz);
    f.get("undefined_refusal", o.undefined_refusal);  // not in older run lines
    f.get("graph_forms", o.graph_forms);
    f.need("expected", o.expected);
    f.get("profile", o.profile);
    f.get("no_profile", o.no_profile);                       // not in older run lines
    if (!j.contains("platform") && j.contains("isa_cap")) {  // older run lines: only "isa_cap"
        std::string cap;
        f.get("isa_cap", cap);
        o.platform = cap.empty() ? "host" : "avx2";
    }
    f.get("platform", o.platform);
    f.need("write_expected", o.write_expected);
    f.need("label", o.label);
    return o;
}

json optional_json(const std::optional<std::string>& text) {
    return text ? json(*text) : json();
}

}  // namespace

json to_json(const RecordedOptions& o) {
    return {{"backend", o.backend},
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
            {"shrink_seconds", o.shrink_seconds},
            {"timeout_seconds", o.timeout_seconds},
            {"nan", o.nan},
            {"ulp", o.ulp},
            {"allow_ftz", o.allow_ftz},
            {"undefined_refusal", o.undefined_refusal},
            {"graph_forms", o.graph_forms},
            {"expected", optional_json(o.expected)},
            {"profile", optional_json(o.profile)},
            {"no_profile", o.no_profile},
            {"platform", o.platform},
            {"write_expected", optional_json(o.write_expected)},
            {"label", o.label}};
}

namespace {

json policy_json(const RunLine& r) {
    return {{"nan", r.nan},
            {"ulp", r.ulp},
            {"allow_ftz", r.allow_ftz},
            {"undefined_refusal", r.undefined_refusal}};
}

}  // namespace

std::string policy_text(const RunLine& run) {
    return policy_json(run).dump();
}

json to_json(const RunLine& r) {
    json run = {{"validator", r.validator},
                {"command_line", r.command_line},
                {"seed", r.seed},
                {"count", r.count},
                {"started", r.started},
                {"policy", policy_json(r)},
                {"backend_command", r.backend_command}};
    if (!r.label.empty()) run["label"] = r.label;
    if (r.options) run["options"] = to_json(*r.options);
    if (!r.directory.empty()) run["directory"] = r.directory;
    if (!r.shard.empty()) run["shard"] = r.shard;
    if (r.backend) run["backend"] = r.backend->hello;
    if (r.platform) run["platform"] = platform_json(*r.platform);
    if (!r.error.empty()) run["error"] = r.error;
    if (!r.applied_files.empty()) {
        run["applied_files"] = json::array();
        for (const AppliedFile& a : r.applied_files)
            run["applied_files"].push_back(applied_json(a));
    }
    return run;
}

namespace {

constexpr std::array<std::pair<Baseline, std::string_view>, 3> kBaselines{{
    {Baseline::accepted, "accepted"},
    {Baseline::new_, "new"},
    {Baseline::now_passes, "now_passes"},
}};

Baseline baseline_from_json(const json& v) {
    std::string text;
    read(v, "baseline", text);
    for (const auto& [b, name] : kBaselines)
        if (name == text) return b;
    wrong("baseline", "\"accepted\", \"new\" or \"now_passes\"");
}

}  // namespace

std::string_view baseline_name(Baseline b) {
    for (const auto& [x, name] : kBaselines)
        if (x == b) return name;
    return "";
}

json to_json(const CaseLine& c) {
    json j = {{"case", c.id},     {"source", c.source},         {"op", c.op},
              {"dtype", c.dtype}, {"shapes", c.shapes},         {"attributes", c.attributes},
              {"valid", c.valid}, {"graph_form", c.graph_form}, {"seconds", c.seconds}};
    if (!c.dtype_b.empty()) j["dtype_b"] = c.dtype_b;
    if (!c.note.empty()) j["note"] = c.note;
    add_verdict(j, c.verdict);
    if (c.minimal) {
        j["shrunk"] = c.minimal->id;
        j["minimal"] = minimal_json(*c.minimal);
    }
    if (!c.files.empty()) j["files"] = c.files;
    if (c.undefined_refused) j["undefined_refused"] = c.undefined_refused;
    if (c.compilations) j["compilations"] = c.compilations;
    if (c.baseline != Baseline::none) j["baseline"] = baseline_name(c.baseline);
    if (!c.replay.empty()) j["replay"] = c.replay;
    return j;
}

json line_json(const RunLine& run) {
    return {{"run", to_json(run)}};
}

bool is_run_line(const json& line) {
    return line.is_object() && line.contains("run");
}

RunLine run_line_from_json(const json& line) {
    if (!is_run_line(line)) throw std::invalid_argument("not a run line ({\"run\": {...}})");
    const Fields f(line["run"], "run");
    RunLine r;
    f.get("validator", r.validator);
    f.get("command_line", r.command_line);
    f.get("started", r.started);
    f.get("backend_command", r.backend_command);
    f.get("label", r.label);
    f.get("directory", r.directory);
    f.get("shard", r.shard);
    f.get("error", r.error);
    f.get("seed", r.seed);
    f.get("count", r.count);
    if (f.j.contains("policy")) {
        const Fields p(f.j["policy"], "run.policy");
        p.get("nan", r.nan);
        p.get("ulp", r.ulp);
        p.get("allow_ftz", r.allow_ftz);
        p.get("undefined_refusal", r.undefined_refusal);
    }
    if (f.j.contains("options")) r.options = options_from_json(f.j["options"]);
    if (f.j.contains("backend")) r.backend = backend_record(f.j["backend"]);
    if (f.j.contains("platform")) r.platform = platform_from_json(f.j["platform"]);
    if (f.j.contains("applied_files")) {
        if (!f.j["applied_files"].is_array()) wrong(f.at("applied_files"), "an array");
        for (const json& a : f.j["applied_files"])
            r.applied_files.push_back(applied_from_json(a));
    }
    return r;
}

CaseLine case_line_from_json(const json& line) {
    const Fields f(line, "");
    CaseLine c;
    f.need("case", c.id);
    f.need("op", c.op);
    f.need("dtype", c.dtype);
    f.need("source", c.source);
    c.verdict = verdict_from_json(f);
    f.get("dtype_b", c.dtype_b);
    if (line.contains("shapes")) read_shapes(line["shapes"], "shapes", c.shapes);
    f.get("attributes", c.attributes);
    f.get("valid", c.valid);
    f.get("graph_form", c.graph_form);
    f.get("seconds", c.seconds);
    f.get("note", c.note);
    f.get("replay", c.replay);
    if (line.contains("minimal")) c.minimal = minimal_from_json(line["minimal"], c.verdict.status);
    f.get("files", c.files);
    f.count("undefined_refused", c.undefined_refused);
    f.count("compilations", c.compilations);
    if (line.contains("baseline"))
        c.baseline = baseline_from_json(line["baseline"]);  // newer lines
    return c;
}

}  // namespace results
