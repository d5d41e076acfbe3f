// `spec` and `edge`: the spec examples and the hand-computed edge-value tables (spec_cases/).
// ONNX's node tests are the `onnx` source, not repeated here.
#include "case_sources/case_sources.hpp"
#include "core/error.hpp"
#include "spec_cases/spec_case.hpp"

namespace case_sources {
namespace {

// A spec case whose data cannot be built (a missing file) ends as the validator's ERROR.
PlannedCase broken_case(const spec_cases::SpecCase& c, const std::string& source,
                        const std::string& reason) {
    return {source + ":" + c.name,
            source,
            nullptr,
            core::ElementType::f32,
            true,
            [reason]() -> core::CaseRecord { throw core::Error(core::ErrorKind::input, reason); }};
}

// SOURCE:NAME:K, with the op version after the name when the name does not start with it (the
// edge tables span versions): edge:edge.signed_zero.f16:onnx.Div-7:3.
std::string case_id(const std::string& source, const std::string& name, const core::OpVersion* op,
                    std::size_t k) {
    const std::string op_id = op ? op->id() : "";
    const bool named = op_id.empty() || name.starts_with(op_id + ".");
    return source + ":" + name + (named ? "" : ":" + op_id) + ":" + std::to_string(k);
}

}  // namespace

std::vector<PlannedCase> plan_spec_cases(bool edge_tables) {
    const std::string source = edge_tables ? "edge" : "spec";
    std::vector<PlannedCase> out;
    for (const spec_cases::SpecCase& c : spec_cases::all_spec_cases()) {
        if (c.name.starts_with("onnx.") || c.name.starts_with("edge.") != edge_tables) continue;
        std::vector<core::CaseRecord> checks;
        try {
            checks = c.checks();
        } catch (const std::exception& e) {
            out.push_back(broken_case(c, source, e.what()));
            continue;
        }
        for (std::size_t k = 0; k < checks.size(); ++k) {
            const core::CaseRecord& check = checks[k];
            out.push_back({case_id(source, c.name, check.op, k), source, check.op, check.a.type,
                           check.valid, [check] { return check; }});
        }
    }
    return out;
}

}  // namespace case_sources
