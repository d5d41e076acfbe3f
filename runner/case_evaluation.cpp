#include "runner/case_evaluation.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <future>
#include <span>

#include "core/error.hpp"

namespace runner {
namespace {

using judging::PreparedCase;

// The timeout of one case: the base, times the case's bytes in units of 64 MiB when larger,
// plus the backend's compile latency.
double case_timeout(const EvaluationSettings& settings, const core::CaseRecord& data) {
    const double bytes =
        3.0 * static_cast<double>(std::max(data.a.bytes.size(), data.b.bytes.size()));
    return settings.timeout_seconds * std::max(1.0, bytes / (64.0 * 1024 * 1024)) +
           settings.compile_latency_seconds;
}

// B with every zero divisor replaced by 1: the same call without undefined elements.
core::Tensor with_defined_divisors(const core::Tensor& b) {
    core::Tensor out = b;
    if (core::is_floating(b.type)) return out;
    const std::size_t size = core::byte_size(b.type);
    for (std::size_t i = 0; i + size <= out.bytes.size(); i += size) {
        const auto element = std::span(out.bytes).subspan(i, size);
        if (std::all_of(element.begin(), element.end(),
                        [](std::byte x) { return x == std::byte{0}; }))
            element[std::endian::native == std::endian::little ? 0 : size - 1] = std::byte{1};
    }
    return out;
}

constexpr std::int64_t kOverlapElements = std::int64_t{1} << 16;

CaseResult evaluate(backends::Backend& backend, const PreparedCase& p,
                    const EvaluationSettings& settings, std::int64_t& next_call_id) {
    const core::CaseRecord& data = *p.data;
    CaseResult r;
    const backends::Call call{next_call_id++,  p.op,
                              data.attributes, &data.a,
                              &data.b,         case_timeout(settings, data),
                              data.graph_form, p.call ? &*p.call : nullptr};
    // Large cases: the expected output is computed while the backend computes its own, so
    // that a backend in another process does not leave the validator's cores idle.
    std::future<core::OpOutput> expected;
    if (data.valid && judging::output_elements(p) >= kOverlapElements)
        expected = std::async(std::launch::async, [&] { return judging::expected_output(p); });
    else if (data.valid)
        r.expected = judging::expected_output(p);
    backends::Result answer = backend.run(call);
    r.compilations = answer.compilations;
    if (expected.valid()) r.expected = expected.get();
    r.verdict = judging::judge_answer(p, answer, r.expected, settings.judge);
    // An output in the backend's shared memory lives until its next call: a deviation's is
    // copied for shrinking and the repro files; a passing one was compared in place, no copy.
    if (answer.shared_output && r.verdict.status != results::Status::passed)
        r.actual = answer.shared_output->copy();
    else
        r.actual = std::move(answer.output);
    return r;
}

// docs/SEMANTICS.md 2.3: the result of integer division by zero is undefined, so a backend may
// refuse the whole call; its defined elements are still checked, in a call without zeros.
bool refused_with_undefined(const CaseResult& r, const core::CaseRecord& data) {
    const results::Status s = r.verdict.status;
    return data.valid && !r.expected.undefined.empty() &&
           (s == results::Status::rejected_valid || s == results::Status::error);
}

CaseResult rerun_defined(backends::Backend& backend, const PreparedCase& p,
                         const EvaluationSettings& settings, std::int64_t& next_call_id,
                         const CaseResult& refused) {
    core::CaseRecord defined = *p.data;
    defined.b = with_defined_divisors(defined.b);
    defined.expected = {};
    PreparedCase q = p;  // the same types and shapes: the same call
    q.data = &defined;
    CaseResult r = evaluate(backend, q, settings, next_call_id);
    const auto undefined = static_cast<std::int64_t>(refused.expected.undefined.size());
    const std::string what =
        std::string(refused.verdict.status == results::Status::error ? "failed" : "rejected") +
        " the call, which has " + std::to_string(undefined) +
        " undefined elements (integer division by zero): " + refused.verdict.message;
    results::Verdict& v = r.verdict;
    if (v.status == results::Status::passed) {
        v.status = results::Status::refused_undefined;
        v.message = "the backend " + what + " | re-run with divisor 1 there: every defined " +
                    "element matches";
    } else if (v.status == results::Status::failed ||
               v.status == results::Status::deviates_as_declared) {
        v.message = "re-run with divisor 1 where the backend " + what + " | " + v.message;
    } else {
        // The re-run has no undefined elements, so what ended it is its own fault.
        v.message = "the call has " + std::to_string(undefined) +
                    " undefined elements (integer division by zero) and the backend " +
                    (refused.verdict.status == results::Status::error ? "failed" : "rejected") +
                    " it: " + refused.verdict.message +
                    " | the re-run with every zero divisor made 1 ended " +
                    std::string(results::name(v.status)) +
                    " too, so the undefined elements are not the cause: " + v.message;
    }
    r.undefined_refused = undefined;
    r.compilations += refused.compilations;
    r.defined_b = std::move(defined.b);
    return r;
}

}  // namespace

CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings,
                         std::int64_t& next_call_id) {
    const auto start = std::chrono::steady_clock::now();
    CaseResult r;
    try {
        const PreparedCase p = judging::prepare_case(op, data);  // the one prepare_call of the case
        r = evaluate(backend, p, settings, next_call_id);
        if (refused_with_undefined(r, data) && !settings.undefined_refusal_is_deviation)
            r = rerun_defined(backend, p, settings, next_call_id, r);
        else if (refused_with_undefined(r, data))
            r.verdict.message += " | the call has " + std::to_string(r.expected.undefined.size()) +
                                 " undefined elements (integer division by zero); counted as a " +
                                 "deviation (--undefined-refusal deviation)";
        judging::declare_status(r.verdict, p, settings.judge);
    } catch (const std::exception& e) {
        r = CaseResult{};
        r.verdict.status = results::Status::error;
        r.verdict.message = std::string("the validator could not run this case: ") + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace runner
