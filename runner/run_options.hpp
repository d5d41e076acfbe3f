// The options of `eltwise-validate run`: which cases run, on which backend, how they are judged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace runner {

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
    std::string undefined_refusal = "rerun";  // or "deviation"
    // How the backend's graph gets the inputs: each case runs in each form the backend builds.
    std::vector<std::string> graph_forms{"runtime"};
    std::string out = "eltwise-results";
    std::optional<std::string> expected;
    std::optional<std::string> profile;  // the backend's declared behaviours (TOML)
    // --platform (runner/platform_choice.hpp): "host", "avx2" (the adapter's library capped
    // through its own knob), "arm64-<QEMU CPU model>" (emulated). --isa-cap avx2 is "avx2".
    std::string platform = "host";
    std::optional<std::string> write_expected;
    std::string label;         // the backend's name in reports; default: its name and version
    std::string command_line;  // recorded in the results' run line
    // A directory of a run that was killed (or finished): run the cases its results.jsonl
    // lacks, with the options its run line records; only the timeout and the shrink budget
    // (neither changes which cases run or how they are judged) may be given again.
    std::string resume;
    bool timeout_given = false;        // --timeout was on the command line
    bool shrink_budget_given = false;  // --shrink-budget was
};

}  // namespace runner
