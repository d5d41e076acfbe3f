// `run --resume DIR`: a killed run's remaining cases, with the options its run line records.
#pragma once

#include "runner/run_options.hpp"

namespace runner {

// Reads and checks everything before the results file changes: an error leaves it as it was.
// Returns the exit code, as start_run does.
int resume_run(const RunOptions& given);

}  // namespace runner
