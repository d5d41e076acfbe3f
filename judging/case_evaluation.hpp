// A case judged in one call: prepared, sent to the backend, its expected output computed, the
// answer judged with the profile's value and status entries, re-run when refused for its
// undefined elements, and held against the baseline (backends/PROTOCOL.md sections 6, 10, 11).
// The runner makes this one call per case and records what it returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "judging/case_judge.hpp"
#include "judging/case_result.hpp"
#include "results/expectations.hpp"

namespace judging {

struct EvaluationSettings {
    JudgeSettings judge;
    // --undefined-refusal deviation: a call refused because of undefined elements stays
    // REJECTED_VALID or ERROR, and is not re-run with them made defined.
    bool undefined_refusal_is_deviation = false;
    // --expected: the baseline each case's status is held against; none without it.
    const std::vector<results::Expectation>* expectations = nullptr;
};

// How the case's calls reach the backend: the runner owns the transport, its call ids (one per
// call: two when the call is re-run) and the case's timeout.
struct CallRoute {
    backends::Backend& backend;
    std::int64_t& next_call_id;
    double timeout_seconds;
};

// The case's result. Never throws: a case the validator cannot run ends as ERROR. A valid call
// that the backend rejects or fails while it has undefined elements is re-run with every zero
// divisor made 1; when that passes, the case is REFUSED_UNDEFINED, otherwise it takes the
// re-run's verdict (PROTOCOL.md section 10). The baseline outcome is `data.id`'s.
CaseResult evaluate_case(const CallRoute& route, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings);

// What the baseline says of case `id` ending with `status`: for a case that ended before it
// could be evaluated (not claimed, not built) and for a resumed run's lines too.
results::Baseline baseline_of(const EvaluationSettings& settings, const std::string& id,
                              results::Status status);

}  // namespace judging
