// Planning a run: the cases its configuration selects, the run line and the replay line of each
// finding.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/protocol.hpp"
#include "case_sources/case_sources.hpp"
#include "comparison/output_comparison.hpp"
#include "platform/host_platform.hpp"
#include "runner/run_config.hpp"
#include "runner/run_options.hpp"

namespace runner {

// The cases of the sources (or the --case ids), each in every --graph-forms form the backend
// builds, filtered by --op, --dtype, --source and --shard, in plan order. Throws
// std::invalid_argument naming an unknown source or case id, or a --case in a form the backend
// does not build.
std::vector<case_sources::PlannedCase> plan_run(const RunConfig& config,
                                                const case_sources::SourceOptions& sources,
                                                const backends::Hello& hello);

// The hello of a backend that claims every (op version, type) of the table and builds every
// graph form: what `run --list-cases` plans for, without starting the backend.
backends::Hello claiming_everything();

// The case in another graph form: its id prefixed with "<form>/", its data built in that form.
case_sources::PlannedCase in_form(case_sources::PlannedCase c, const std::string& form);

// Whether the backend's hello claims the case: its (op version, type) when the case is valid,
// its op version otherwise.
bool claimed(const backends::Hello& hello, const case_sources::PlannedCase& c, bool valid);

// The command that reruns one case with the same backend and policy.
std::string replay_line(const RunOptions& o, const std::string& id);

// The first line of results.jsonl; `hello` is null and `error` says why when the backend never
// started.
results::RunLine run_line(const RunConfig& config, const platform::Platform& platform,
                          const backends::Hello* hello, const std::string& error);

}  // namespace runner
