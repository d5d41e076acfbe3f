#include "runner/case_evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <future>

#include "core/error.hpp"
#include "optimized/run.hpp"
#include "reference/run.hpp"

namespace runner {
namespace {

constexpr std::int64_t kReferenceLimit = std::int64_t{1} << 20;
constexpr std::int64_t kOverlapElements = std::int64_t{1} << 16;

results::Status status_of_answer(backends::Outcome o, bool valid) {
    switch (o) {
        case backends::Outcome::ok:
            return valid ? results::Status::passed
                         : results::Status::accepted_invalid;  // passed: until compared
        case backends::Outcome::rejected:
            return valid ? results::Status::rejected_valid : results::Status::passed;
        case backends::Outcome::unsupported:
            return results::Status::unsupported;
        case backends::Outcome::error:
            return results::Status::error;
        case backends::Outcome::crashed:
            return results::Status::crashed;
        case backends::Outcome::hung:
            return results::Status::hung;
        case backends::Outcome::protocol_error:
            return results::Status::protocol_error;
    }
    return results::Status::error;
}

void compare_into(CaseResult& r, const core::OpVersion& op, const case_sources::CaseData& data,
                  const comparison::ComparisonPolicy& policy) {
    const core::PreparedCall call = core::prepare_call(op, data.attributes, data.a, data.b);
    comparison::Comparison c =
        comparison::compare_output(call, data.a, data.b, r.expected, r.actual, policy);
    r.allowances = std::move(c.allowances);
    if (c.passed()) return;
    r.status = results::Status::failed;
    r.message = comparison::describe(c);
    r.categories = std::move(c.categories);
    r.mismatches = std::move(c.first);
}

CaseResult evaluate(backends::Backend& backend, const core::OpVersion& op,
                    const case_sources::CaseData& data, const EvaluationSettings& settings,
                    std::int64_t call_id) {
    CaseResult r;
    const backends::Call call{call_id, &op,     data.attributes,
                              &data.a, &data.b, case_timeout(settings.timeout_seconds, data)};
    // Large cases: the expected output is computed while the backend computes its own, so
    // that a backend in another process does not leave the validator's cores idle.
    std::future<core::OpOutput> expected;
    if (data.valid && output_elements(op, data) >= kOverlapElements)
        expected = std::async(std::launch::async, [&] { return expected_output(op, data); });
    else if (data.valid)
        r.expected = expected_output(op, data);
    backends::Result answer = backend.run(call);
    if (expected.valid()) r.expected = expected.get();
    r.status = status_of_answer(answer.outcome, data.valid);
    r.message = std::move(answer.message);
    r.actual = std::move(answer.output);
    if (answer.outcome == backends::Outcome::ok && data.valid)
        compare_into(r, op, data, settings.policy);
    return r;
}

}  // namespace

std::int64_t output_elements(const core::OpVersion& op, const case_sources::CaseData& d) {
    return core::element_count(core::prepare_call(op, d.attributes, d.a, d.b).plan.output);
}

core::OpOutput expected_output(const core::OpVersion& op, const case_sources::CaseData& data) {
    if (data.expected) return *data.expected;
    const core::Shape out = core::prepare_call(op, data.attributes, data.a, data.b).plan.output;
    if (core::element_count(out) > kReferenceLimit)
        return optimized::run(op, data.attributes, data.a, data.b);
    return reference::run(op, data.attributes, data.a, data.b);
}

double case_timeout(double base_seconds, const case_sources::CaseData& data) {
    const double bytes =
        3.0 * static_cast<double>(std::max(data.a.bytes.size(), data.b.bytes.size()));
    return base_seconds * std::max(1.0, bytes / (64.0 * 1024 * 1024));
}

CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const case_sources::CaseData& data, const EvaluationSettings& settings,
                         std::int64_t call_id) {
    const auto start = std::chrono::steady_clock::now();
    CaseResult r;
    try {
        r = evaluate(backend, op, data, settings, call_id);
    } catch (const std::exception& e) {
        r = CaseResult{};
        r.status = results::Status::error;
        r.message = std::string("the validator could not run this case: ") + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace runner
