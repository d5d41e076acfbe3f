// Running planned cases on a backend: each case evaluated by the judge (judging::evaluate_case,
// which also holds it against --expected), its deviations shrunk and saved as repro files, its
// line appended to results.jsonl and counted.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "case_sources/run_case.hpp"
#include "judging/case_evaluation.hpp"
#include "results/case_status.hpp"
#include "results/expectations.hpp"
#include "results/results_file.hpp"
#include "runner/backend_choice.hpp"
#include "runner/run_config.hpp"
#include "runner/run_options.hpp"
#include "runner/run_summary.hpp"
#include "runner/shrinking.hpp"

namespace runner {

// How long the runner waits for a call (PROTOCOL.md section 10).
struct CallTimeouts {
    double timeout_seconds = 10;  // base per case, scaled up with the case's bytes
    // A compiling backend's announced compile latency (PROTOCOL.md section 9, item 19), added to
    // every case's timeout.
    double compile_latency_seconds = 0;
};

// The timeout of one case: the base, times the case's bytes in units of 64 MiB when larger,
// plus the backend's compile latency.
double case_timeout(const CallTimeouts& t, const core::CaseRecord& data);

struct CaseRunner {
    const RunOptions& options;  // the configuration's, as given (repro paths, replay lines)
    BackendChoice choice{};     // the configuration's backend and platform
    judging::EvaluationSettings settings;
    CallTimeouts timeouts;
    RunSummary summary;
    backends::Backend* backend = nullptr;  // set once the backend runs (not for recalled cases)
    results::ResultsFile* results = nullptr;
    std::vector<results::Expectation> expectations{};
    std::vector<results::Deviation> deviations{};
    std::vector<std::string> new_findings{}, now_passing{};
    std::vector<std::string> notes{};  // findings about the cases themselves (ONNX test data)
    platform::Platform platform{};     // where the adapter ran (--platform)
    std::optional<profiles::Profile> profile{};            // --profile
    std::set<std::string> exercised{};                     // its entries that predicted a deviation
    std::map<std::string, std::int64_t> declared_cases{};  // its entries' cases explained
    std::int64_t next_call = 1;

    // Runs the case; for an exhaustive16 block, counts its pairs and wall time.
    void run(const case_sources::PlannedCase& c);
    // A case line of the run being resumed: held against the baseline and counted as if the case
    // had just run.
    void recall(const results::CaseLine& line);

  private:
    judging::CaseResult evaluate(const core::OpVersion& op, const core::CaseRecord& data);
    std::optional<ShrinkOutcome> shrink(const case_sources::PlannedCase& c,
                                        const core::CaseRecord& data, judging::CaseResult& result);
    std::vector<std::string> save(const case_sources::PlannedCase& c, const core::CaseRecord& data,
                                  judging::CaseResult& result,
                                  const std::optional<ShrinkOutcome>& minimal);
    void record(const case_sources::PlannedCase& c, const core::CaseRecord* data,
                judging::CaseResult result);
    void tally(const results::CaseLine& line, results::Baseline baseline);
    judging::CaseResult ended_unjudged(const case_sources::PlannedCase& c, results::Status status,
                                       std::string message) const;
    bool run_claimed(const case_sources::PlannedCase& c);
};

// Reads --expected and --profile before the backend starts: a usage error costs no backend
// start. The runner refers to the configuration's options, which must outlive it.
CaseRunner make_case_runner(const RunConfig& config, std::size_t planned);

// Points the evaluation settings at the runner's own profile, platform and expectations (after
// the runner has its final address).
void bind_settings(CaseRunner& r);

// Runs the cases, appending their lines; a progress line on a terminal.
void run_all(CaseRunner& runner, const std::vector<const case_sources::PlannedCase*>& todo);

// Prints the summary table, the new findings and notes; writes --write-expected. Returns the
// exit code: 0 when nothing new deviates, else 1.
int finish(CaseRunner& r);

// junit.xml and report.html beside results.jsonl: views of it, made by reading it back.
void write_run_reports(const std::string& out);

// `run` without --resume: plans, starts the backend, runs every case. Returns the exit code.
int start_run(const RunConfig& config);

}  // namespace runner
