// The eltwise-validate subcommands. Each returns the process exit code:
// 0 success, 1 a check failed or the op rejected its input, 2 a usage or input error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validator/report_files.hpp"

namespace validator {

struct ListOptions {
    bool as_json = false;
    bool backends = false;    // list the built-in backends and the adapters, and which start
    std::string backend;      // a built-in backend or adapter name: show its claims
    std::string backend_cmd;  // an out-of-process backend: show its claims
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

struct RunOptions {
    std::string backend;             // built-in name ("optimized", "reference")
    std::string backend_cmd;         // or an out-of-process command line
    std::vector<std::string> cases;  // source names; empty: the default sources
    std::vector<std::string> ops;    // filters; empty: all
    std::vector<std::string> dtypes;
    std::vector<std::string> sources;
    std::vector<std::string> case_ids;  // replay exactly these cases
    std::vector<std::string> onnx_dirs;
    std::string shard;        // "K/N": only the cases whose id hashes to part K of N
    bool list_cases = false;  // print the planned case ids instead of running them
    std::uint64_t seed = 1;
    int count = 10;
    int shrink_budget = 1000;
    double timeout_seconds = 10;
    std::string nan = "any";  // or "strict"
    int ulp = 0;
    bool allow_ftz = false;
    std::string out = "eltwise-results";
    std::optional<std::string> expected;
    std::optional<std::string> write_expected;
    std::string label;         // the backend's name in reports; default: its name and version
    std::string command_line;  // recorded in the results' run line
    // A directory of a run that was killed (or finished): run the cases its results.jsonl
    // lacks, with the options its run line records; only the timeout may be given again.
    std::string resume;
    bool timeout_given = false;  // --timeout was on the command line
};
int run_run(const RunOptions& options);

struct ReportOptions {
    std::vector<std::string> files;  // results.jsonl files
    ReportOutputs outputs;
};
int run_report(const ReportOptions& options);

}  // namespace validator
