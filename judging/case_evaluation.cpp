#include "judging/case_evaluation.hpp"

#include <chrono>
#include <future>
#include <utility>

#include "judging/undefined_rerun.hpp"

namespace judging {
namespace {

constexpr std::int64_t kOverlapElements = std::int64_t{1} << 16;

// The call sent once, its answer judged (before the profile's status entries).
CaseResult evaluate(const CallRoute& route, const PreparedCase& p,
                    const EvaluationSettings& settings) {
    const core::CaseRecord& data = *p.data;
    CaseResult r;
    const backends::Call call{route.next_call_id++,
                              p.op,
                              data.attributes,
                              &data.a,
                              &data.b,
                              route.timeout_seconds,
                              data.graph_form,
                              p.call ? &*p.call : nullptr};
    // Large cases: the expected output is computed while the backend computes its own, so
    // that a backend in another process does not leave the validator's cores idle.
    std::future<core::OpOutput> expected;
    if (data.valid && output_elements(p) >= kOverlapElements)
        expected = std::async(std::launch::async, [&] { return expected_output(p); });
    else if (data.valid)
        r.expected = expected_output(p);
    backends::Result answer = route.backend.run(call);
    r.compilations = answer.compilations;
    if (expected.valid()) r.expected = expected.get();
    r.verdict = judge_answer(p, answer, r.expected, settings.judge);
    // An output in the backend's shared memory lives until its next call: a deviation's is
    // copied for shrinking and the repro files; a passing one was compared in place, no copy.
    if (answer.shared_output && r.verdict.status != results::Status::passed)
        r.actual = answer.shared_output->copy();
    else
        r.actual = std::move(answer.output);
    return r;
}

// The same call with every zero divisor made 1 (the same types and shapes: the same call).
CaseResult rerun_defined(const CallRoute& route, const PreparedCase& p,
                         const EvaluationSettings& settings, const CaseResult& refused) {
    core::CaseRecord defined = *p.data;
    defined.b = with_defined_divisors(defined.b);
    defined.expected = {};
    PreparedCase q = p;
    q.data = &defined;
    CaseResult rerun = evaluate(route, q, settings);
    return settle_rerun(std::move(rerun), refused, std::move(defined.b));
}

CaseResult judged(const CallRoute& route, const core::OpVersion& op, const core::CaseRecord& data,
                  const EvaluationSettings& settings) {
    const PreparedCase p = prepare_case(op, data);  // the one prepare_call of the case
    CaseResult r = evaluate(route, p, settings);
    if (refused_with_undefined(r, data.valid) && !settings.undefined_refusal_is_deviation)
        r = rerun_defined(route, p, settings, r);
    else if (refused_with_undefined(r, data.valid))
        keep_refusal(r);
    declare_status(r.verdict, p, settings.judge);
    return r;
}

}  // namespace

CaseResult evaluate_case(const CallRoute& route, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    CaseResult r;
    try {
        r = judged(route, op, data, settings);
    } catch (const std::exception& e) {
        r = CaseResult{};
        r.verdict.status = results::Status::error;
        r.verdict.message = std::string("the validator could not run this case: ") + e.what();
    }
    r.baseline = baseline_of(settings, data.id, r.verdict.status);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

results::Baseline baseline_of(const EvaluationSettings& settings, const std::string& id,
                              results::Status status) {
    static const std::vector<results::Expectation> none;
    const bool have = settings.expectations != nullptr;
    return results::baseline_outcome(have, have ? *settings.expectations : none, id, status);
}

}  // namespace judging
