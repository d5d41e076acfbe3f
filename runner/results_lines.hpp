// A case's line of results.jsonl (results/results_line.hpp), filled from what the run has of it.
#pragma once

#include <string>
#include <vector>

#include "case_sources/run_case.hpp"
#include "judging/case_result.hpp"
#include "results/results_line.hpp"
#include "runner/shrinking.hpp"

namespace runner {

// What the results line of a case needs besides its result.
struct CaseLineParts {
    const case_sources::PlannedCase* planned = nullptr;
    const core::CaseRecord* data = nullptr;  // null when the case was not built
    const judging::CaseResult* result = nullptr;
    const ShrinkOutcome* minimal = nullptr;  // the shrunk failing case, when there is one
    std::vector<std::string> files;          // repro files written for it
};

// The case's line; a shrunk case has its minimal case.
results::CaseLine case_line(const CaseLineParts& r);

}  // namespace runner
