#include "runner/spec_check.hpp"

#include <algorithm>
#include <cmath>

#include "comparison/output_comparison.hpp"
#include "core/element_text.hpp"

namespace runner {
namespace {

using spec_cases::SpecCase;

std::string join(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

// Compares element by element: bits must match, except that any NaN matches any NaN and
// expected-undefined elements are skipped. Returns one line per mismatch, at most `limit`
// lines plus a count of the rest.
std::vector<std::string> compare_outputs(const core::OpOutput& expected,
                                         const core::OpOutput& actual, std::size_t limit = 8) {
    const core::Tensor& x = expected.value;
    const core::Tensor& y = actual.value;
    if (x.type != y.type)
        return {"element type " + std::string(core::name(y.type)) + ", expected " +
                std::string(core::name(x.type))};
    if (x.shape != y.shape)
        return {"output shape " + core::to_string(y.shape) + ", expected " +
                core::to_string(x.shape)};
    std::vector<std::string> lines;
    std::size_t mismatches = 0;
    for (std::int64_t i = 0; i < x.size(); ++i) {
        if (std::binary_search(expected.undefined.begin(), expected.undefined.end(), i)) continue;
        if (comparison::same_element(x.type, core::element_bits(x, i), core::element_bits(y, i)))
            continue;
        if (++mismatches <= limit)
            lines.push_back("element " + std::to_string(i) + ": got " + core::format_element(y, i) +
                            ", expected " + core::format_element(x, i));
    }
    if (mismatches > limit)
        lines.push_back("... " + std::to_string(mismatches - limit) + " more mismatching elements");
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
    std::vector<std::string> problems = compare_outputs(*want.output, got);
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

}  // namespace runner
