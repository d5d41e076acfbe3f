// Running one case on a backend, re-running a call refused for its undefined elements, and
// having the judge (judging/) decide its verdict (backends/PROTOCOL.md sections 6, 10 and 11).
#pragma once

#include <cstdint>
#include <optional>

#include "backends/backend.hpp"
#include "judging/case_judge.hpp"
#include "results/results_line.hpp"

namespace runner {

struct EvaluationSettings {
    judging::JudgeSettings judge;
    double timeout_seconds = 10;  // base per case, scaled up with the case's bytes
    // A compiling backend's announced compile latency (PROTOCOL.md section 9, item 19), added to
    // every case's timeout.
    double compile_latency_seconds = 0;
    // --undefined-refusal deviation: a call refused because of undefined elements stays
    // REJECTED_VALID or ERROR, and is not re-run with them made defined.
    bool undefined_refusal_is_deviation = false;
};

struct CaseResult {
    results::Verdict verdict;
    core::OpOutput expected;  // valid cases
    core::Tensor actual;      // the backend's output, when it gave one
    double seconds = 0;
    std::int64_t compilations = 0;  // what the backend's answers said they compiled
    // The backend refused the call, which has this many undefined output elements (integer
    // division by zero); the verdict is the re-run's, with `defined_b` as B.
    std::int64_t undefined_refused = 0;
    std::optional<core::Tensor> defined_b;
};

// Runs the case on the backend and has the judge classify the answer; call ids are taken from
// `next_call_id` (two when the call is re-run). Never throws: a case the validator cannot run
// ends as ERROR. A valid call that the backend rejects or fails while it has undefined elements
// is re-run with every zero divisor made 1; when that passes, the case is REFUSED_UNDEFINED,
// otherwise it takes the re-run's verdict (PROTOCOL.md section 10).
CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings,
                         std::int64_t& next_call_id);

}  // namespace runner
