// The lines a run writes to results.jsonl (backends/PROTOCOL.md section 12): a case's line, and
// the run line's `options`, which `run --resume` reads back.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_sources/run_case.hpp"
#include "runner/case_evaluation.hpp"
#include "runner/run_options.hpp"
#include "runner/shrinking.hpp"

namespace runner {

// What the results line of a case needs besides its result.
struct CaseRecord {
    const case_sources::PlannedCase* planned = nullptr;
    const case_sources::CaseData* data = nullptr;  // null when the case was not built
    const CaseResult* result = nullptr;
    const ShrinkOutcome* minimal = nullptr;  // the shrunk failing case, when there is one
    std::vector<std::string> files;          // repro files written for it
};

// The case's line. A shrunk case adds `shrunk` (the minimal case's id) and `minimal`: its
// shapes, attributes, status, categories, mismatches and message.
nlohmann::json case_line(const CaseRecord& r);

// The run line's `options`: every option that decides which cases run and how they are judged,
// so that `run --resume` plans and judges the same cases. Not recorded: `out` (the directory
// resumed), `list_cases`, `command_line`, `resume`, `timeout_given`.
nlohmann::json options_json(const RunOptions& o);
// Throws core::Error(input) for a missing or mistyped field.
RunOptions options_from_json(const nlohmann::json& j);

}  // namespace runner
