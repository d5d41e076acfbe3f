#include "spec_check/spec_check.hpp"

#include "judging/case_judge.hpp"

namespace spec_check {
namespace {

using spec_cases::SpecCase;

std::string join(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

// The judge's element comparison (judging::judge_answer, no profile): one line per mismatch,
// at most `limit` lines plus a count of the rest. Expected-undefined elements are skipped.
std::vector<std::string> compare_outputs(const core::CaseRecord& check,
                                         const core::OpOutput& expected,
                                         const core::OpOutput& actual, std::size_t limit = 8) {
    const core::Tensor& x = expected.value;
    const core::Tensor& y = actual.value;
    if (x.type != y.type)
        return {"element type " + std::string(core::name(y.type)) + ", expected " +
                std::string(core::name(x.type))};
    if (x.shape != y.shape)
        return {"output shape " + core::to_string(y.shape) + ", expected " +
                core::to_string(x.shape)};
    const judging::PreparedCase p = judging::prepare_case(*check.op, check);
    backends::Result answer;  // the output judged where it lies, as a shared region's
    answer.outcome = backends::Outcome::ok;
    answer.shared_output = core::TensorView(y);
    const results::Verdict v = judging::judge_answer(p, answer, expected, {});
    std::vector<std::string> lines;
    for (const comparison::Mismatch& m : v.mismatches)
        if (m.index >= 0 && lines.size() < limit)
            lines.push_back("element " + std::to_string(m.index) + ": got " + m.actual +
                            ", expected " + m.expected);
    std::int64_t mismatches = 0;
    for (const auto& [category, count] : v.categories)
        mismatches += count;
    if (mismatches > static_cast<std::int64_t>(limit))
        lines.push_back("... " + std::to_string(mismatches - static_cast<std::int64_t>(limit)) +
                        " more mismatching elements");
    return lines;
}

std::vector<std::string> check_one(const core::CaseRecord& check, const Evaluate& evaluate,
                                   bool reports_undefined) {
    const core::CaseExpectation& want = check.expected;
    core::OpOutput got;
    try {
        got = evaluate(*check.op, check.attributes, check.a, check.b);
    } catch (const core::Error& e) {
        if (want.error && *want.error == e.kind()) return {};
        return {std::string(want.error ? "rejected with the wrong kind of error: "
                                       : "rejected a valid input: ") +
                e.what()};
    }
    if (want.error)
        return {"accepted an input the spec rejects (expected a " +
                std::string(core::name(*want.error)) + " error); output shape " +
                core::to_string(got.value.shape)};
    if (want.shape && got.value.shape != *want.shape)
        return {"output shape " + core::to_string(got.value.shape) + ", expected " +
                core::to_string(*want.shape)};
    if (!want.output) return {};
    std::vector<std::string> problems = compare_outputs(check, *want.output, got);
    if (reports_undefined && got.undefined != want.output->undefined)
        problems.push_back("undefined elements " + join(got.undefined) + ", expected " +
                           join(want.output->undefined));
    return problems;
}

}  // namespace

CaseOutcome check_spec_case(const SpecCase& c, const Evaluate& evaluate, bool reports_undefined) {
    CaseOutcome outcome{c.name, 0, {}};
    std::vector<core::CaseRecord> checks;
    try {
        checks = c.checks();
    } catch (const std::exception& e) {
        outcome.failures.push_back({c.name, std::string("cannot load the case: ") + e.what()});
        return outcome;
    }
    for (const core::CaseRecord& check : checks) {
        ++outcome.checks;
        for (std::string& message : check_one(check, evaluate, reports_undefined))
            outcome.failures.push_back({check.id, std::move(message)});
    }
    return outcome;
}

}  // namespace spec_check
