// results.jsonl (backends/PROTOCOL.md section 12): one JSON object per line, each written with a
// single write() as soon as its case ends, so that a run killed at any moment leaves complete
// lines.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validator/case_evaluation.hpp"
#include "validator/commands.hpp"
#include "validator/shrinking.hpp"

namespace validator {

class ResultsFile {
  public:
    enum class Mode {
        create,  // create or truncate: a new run
        append,  // after the lines already there: a resumed run
    };
    // Opens `path`. Throws core::Error(input) naming it.
    explicit ResultsFile(const std::string& path, Mode mode = Mode::create);
    ~ResultsFile();
    ResultsFile(const ResultsFile&) = delete;
    ResultsFile& operator=(const ResultsFile&) = delete;

    void append(const nlohmann::json& line);

  private:
    std::string path_;
    int fd_ = -1;
};

// What the results line of a case needs besides its result.
struct CaseRecord {
    const PlannedCase* planned = nullptr;
    const CaseData* data = nullptr;  // null when the case was not built
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

// The inner object of the first line, `{"run": {...}}`. Throws core::Error(input) naming the
// file when it cannot be read, or when its first line is not a complete run line.
nlohmann::json read_run_line(const std::string& path);

// Calls on_case for each complete line after the run line, in file order, and returns the
// length in bytes of the complete lines. A last line without its newline (the run was killed
// while writing it) is not passed on. Throws core::Error(input) naming the file and the line for
// a complete line that is not a case line (fields `case`, `op`, `dtype`, `source` and a known
// `status`), or for which on_case throws.
std::uint64_t read_case_lines(const std::string& path,
                              const std::function<void(const nlohmann::json&)>& on_case);

// Cuts the file back to its first `length` bytes. Throws core::Error(input).
void truncate_results(const std::string& path, std::uint64_t length);

}  // namespace validator
