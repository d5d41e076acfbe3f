// The eltwise-validate subcommands. Each returns the process exit code:
// 0 success, 1 a check failed or the op rejected its input, 2 a usage or input error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/report_files.hpp"
#include "runner/run_options.hpp"

namespace validator {

// The exit code of a usage or input error (the header's first line).
constexpr int kUsageError = 2;

struct ListOptions {
    bool as_json = false;
    bool backends = false;          // list the built-in backends and the adapters, and which start
    std::string backend;            // a built-in backend or adapter name: show its claims
    std::string backend_cmd;        // an out-of-process backend: show its claims
    std::string platform = "host";  // where the adapters start (runner/platform_choice.hpp)
    bool kernel_sets = false;       // which of the optimized backend's kernel sets this CPU runs
    bool categories = false;        // the mismatch categories' names (comparison/category.hpp)
};
int run_list(const ListOptions& options);

struct SpecOptions {
    bool list_names = false;         // print case names only (ctest discovery)
    std::vector<std::string> cases;  // empty: all
    bool verbose = false;
};
int run_spec(const SpecOptions& options);

struct EvalOptions {
    std::string op;
    std::vector<std::string> attributes;  // "k=v"
    std::string a, b;                     // .npy paths or inline tensors
    std::optional<std::string> dtype;
    std::optional<std::string> out;  // .npy or .json; stdout (JSON) when absent
};
int run_eval(const EvalOptions& options);

int run_run(const runner::RunOptions& options);

struct ProfileOptions {
    std::string file;     // a profile, or
    std::string backend;  // an adapter whose own profile.toml to print
};
int run_profile(const ProfileOptions& options);

struct ExportOptions {
    std::string format;        // onnx-node-tests
    std::string dir;           // written into: <dir>/eltwise/test_*/
    runner::RunOptions cases;  // the case filters, as `run` takes them
};
int run_export(const ExportOptions& options);

struct ReportOptions {
    std::vector<std::string> files;  // results.jsonl files
    runner::ReportOutputs outputs;
};
int run_report(const ReportOptions& options);

struct TriageOptions {
    std::string results;  // a results.jsonl
    std::string draft;    // the drafted profile written
};
int run_triage(const TriageOptions& options);
// `run --draft-profile FILE`: triage of the run's own results; the run's exit code unless
// triage fails. Nothing when `draft` is empty.
int draft_after_run(const std::string& out_dir, const std::string& draft, int run_exit);

}  // namespace validator
