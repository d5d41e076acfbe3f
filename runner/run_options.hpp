// The options of `eltwise-validate run`: which cases run, on which backend, how they are judged.
#pragma once

#include <string>

#include "results/results_line.hpp"

namespace runner {

// What the run line records (results::RecordedOptions), and what it does not.
struct RunOptions : results::RecordedOptions {
    bool list_cases = false;  // print the planned case ids instead of running them
    std::string out = "eltwise-results";
    std::string command_line;  // recorded in the results' run line
    // A directory of a run that was killed (or finished): run the cases its results.jsonl
    // lacks, with the options its run line records; only the timeout and the shrink budgets
    // (none changes which cases run or how they are judged) may be given again.
    std::string resume;
    bool timeout_given = false;         // --timeout was on the command line
    bool shrink_budget_given = false;   // --shrink-budget was
    bool shrink_seconds_given = false;  // --shrink-seconds was
    // Off a terminal (a run in the background, CI), a progress line on stderr this often.
    double progress_seconds = 10;
    // The profile and the expectations are the adapter's own, not named by an option
    // (runner/adapter_files.hpp).
    bool profile_from_adapter = false, expected_from_adapter = false;
};

}  // namespace runner
