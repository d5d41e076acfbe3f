// The lines of results.jsonl (backends/PROTOCOL.md section 12) as structs, and their one JSON
// mapping: the runner fills them, the reports, --resume and the expectations read them, and no
// code outside results/ spells a key of the file (docs/tests/results_keys_test.py checks it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "comparison/output_comparison.hpp"
#include "platform/gpu_facts.hpp"
#include "results/case_status.hpp"
#include "results/expectations.hpp"

namespace results {

using Shape = std::vector<std::int64_t>;
using Attributes = std::map<std::string, std::string>;

// What judging gave a case, or its minimal case.
struct Verdict {
    Status status = Status::error;
    comparison::CategoryCounts categories;  // FAILED: mismatching elements per category
    std::string message;
    std::vector<comparison::Mismatch> mismatches;  // FAILED: the first few
    std::set<std::string> allowed_by;              // PASSED only because of these options
    // Profile entries that explain the deviation: elements, or 1 for a status.
    std::map<std::string, std::int64_t> declared;
};

// The smallest case that fails the way a shrunk case failed.
struct MinimalCase {
    std::string id;
    std::vector<Shape> shapes;
    Attributes attributes;
    std::int64_t tries = 0;  // backend calls spent shrinking
    Verdict verdict;
    double seconds = 0;  // wall time spent shrinking (the case line's `seconds` is the case's own)
    // "tries" or "seconds": shrinking stopped at --shrink-budget or --shrink-seconds with
    // candidates left untried, so a smaller case may still fail the same way; "" when it ended.
    std::string cut_short;
};

struct CaseLine {
    std::string id, source, op, dtype;  // op: empty when the case could not be built
    std::string dtype_b;                // when B's type is not A's
    std::vector<Shape> shapes;          // A and B; empty when the case was not built
    Attributes attributes;
    bool valid = true;
    std::string graph_form = "runtime";
    double seconds = 0;
    Verdict verdict;
    std::string note;    // what the case source says of it
    std::string replay;  // a deviation: the command that reruns it
    std::optional<MinimalCase> minimal;
    std::vector<std::string> files;  // repro files
    // The backend refused the call over this many undefined elements; the verdict is the re-run's.
    std::int64_t undefined_refused = 0;
    // The compilations the backend's answers to this case reported (PROTOCOL.md 9, item 19).
    std::int64_t compilations = 0;
    // What the run's --expected baseline says of it (none: no baseline, or lines of older runs).
    Baseline baseline = Baseline::none;
};

// The options that decide which cases run and how they are judged: what `run --resume` needs.
struct RecordedOptions {
    std::string backend;             // built-in name ("optimized", "reference")
    std::string backend_cmd;         // or an out-of-process command line
    std::vector<std::string> cases;  // source names; empty: the default sources
    std::vector<std::string> ops;    // filters; empty: all
    std::vector<std::string> dtypes;
    std::vector<std::string> sources;
    std::vector<std::string> case_ids;  // replay exactly these cases
    std::vector<std::string> onnx_dirs;
    std::string shard;  // "K/N": only the cases whose id hashes to part K of N
    std::uint64_t seed = 1;
    int count = 10;
    int shrink_budget = 1000;
    // Seconds of wall time shrinking one case may take (a crash costs a backend restart per try).
    double shrink_seconds = 120;
    double timeout_seconds = 10;
    std::string nan = "any";  // or "strict"
    int ulp = 0;
    bool allow_ftz = false;
    std::string undefined_refusal = "rerun";  // or "deviation"
    // How the backend's graph gets the inputs: each case runs in each form the backend builds.
    std::vector<std::string> graph_forms{"runtime"};
    std::optional<std::string> expected;
    std::optional<std::string> profile;  // the backend's declared behaviours (TOML)
    // The adapter's own profile.toml and expected.txt were not applied (run --no-profile); the
    // files above are those applied: given, or the adapter's own (runner/adapter_files.hpp).
    bool no_profile = false;
    // "host", "avx2" (the adapter's library capped through its own knob), "arm64-<model>" or
    // "x86-<model>" (emulated).
    std::string platform = "host";
    std::optional<std::string> write_expected;
    std::string label;  // the backend's name in reports; default: its name and version
};

// The hello of the backend: the fields reports read, and the whole line for --resume.
struct BackendRecord {
    std::string name, version;
    std::map<std::string, std::vector<std::string>> ops;  // op id -> types claimed
    nlohmann::json hello;                                 // backends::parse_hello reads it
};

// Where the backend ran (platform::Platform as recorded).
struct PlatformRecord {
    std::string os, arch, cpu_vendor, cpu_model;
    std::vector<std::string> cpu_features;
    std::string isa_cap, name, emulator;  // empty: none, the host, not emulated
    platform::GpuFacts gpu;               // the GPU the backend's hello named, if any
};

// A file that judged the run: the profile, a file it includes, or the expectations. The hash is
// FNV-1a (64-bit) of the file's bytes, as 16 hex digits: `run --resume` checks it, and a reader
// compares it with another run's to see that both were judged by the same file.
enum class FileRole { profile, profile_include, expected };
std::string_view name(FileRole role);  // "profile", "profile_include", "expected"

struct AppliedFile {
    FileRole role = FileRole::profile;
    std::string path;
    std::string fnv1a64;
    bool adapter_default = false;  // the adapter's own file, not one named by an option
};

struct RunLine {
    std::string validator;  // "eltwise-validate 0.x"
    std::string command_line, started, backend_command, label, directory, shard;
    std::string error;  // the run never started
    std::uint64_t seed = 0;
    int count = 0;
    std::string nan = "any", undefined_refusal = "rerun";  // the policy
    int ulp = 0;
    bool allow_ftz = false;
    std::optional<RecordedOptions> options;
    std::optional<BackendRecord> backend;  // none when the run did not start
    std::optional<PlatformRecord> platform;
    std::vector<AppliedFile> applied_files;
};

// The run line's object; the line written is line_json's {"run": {...}}.
nlohmann::json to_json(const RunLine& run);
nlohmann::json line_json(const RunLine& run);
nlohmann::json to_json(const CaseLine& line);
nlohmann::json to_json(const RecordedOptions& options);

// The inverse of to_json, checking every field's type; fields a line lacks keep their defaults
// (older validators wrote fewer). Throw std::invalid_argument naming the field.
RunLine run_line_from_json(const nlohmann::json& line);
CaseLine case_line_from_json(const nlohmann::json& line);
bool is_run_line(const nlohmann::json& line);
// The run's policy as its JSON object: {"nan": "any", "ulp": 0, ...}.
std::string policy_text(const RunLine& run);
// "accepted", "new", "now_passes" (the key "baseline" of a case line); "" for none.
std::string_view baseline_name(Baseline b);

// The record of a hello (backends::to_line's object).
BackendRecord backend_record(const nlohmann::json& hello);

}  // namespace results
