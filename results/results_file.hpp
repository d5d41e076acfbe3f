// results.jsonl (backends/PROTOCOL.md section 12), its one writer and its one reader. The writer
// appends one JSON object per line, each with a single write() as soon as its case ends, so that
// a run killed at any moment leaves complete lines.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace results {

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

// The inner object of the first line, `{"run": {...}}`. Throws core::Error(input) naming the
// file when it cannot be read, or when its first line is not a complete run line.
nlohmann::json read_run_line(const std::string& path);

using RunCallback = std::function<void(const nlohmann::json& run)>;
using CaseCallback = std::function<void(const nlohmann::json& line)>;

enum class ReadMode {
    // Reports: every line must be whole, run lines may recur (files of several shards joined).
    report,
    // --resume: one run line, first; a last line without its newline (the run was killed while
    // writing it) is not passed on.
    resume,
};

// Calls on_run for each `{"run": {...}}` line (with its inner object) and on_case for every
// other line, in file order; returns the length in bytes of the lines read. Every line is checked
// before it is passed on: a JSON object; a case line after a run line, with string fields
// `case`, `op`, `dtype`, `source` and a known `status`; and every field the reports or --resume
// read of the JSON type results files give it (a `message` that is a string, a category count
// that is an integer in [0, 2^40], ...). Throws core::Error(input) naming the file and the line
// for a file that cannot be read, a line that fails these checks, and a callback that throws
// anything but core::Error. Reads line by line: a run of millions of cases never has to fit in
// memory.
std::uint64_t read_results(const std::string& path, const RunCallback& on_run,
                           const CaseCallback& on_case, ReadMode mode = ReadMode::report);
// read_results in resume mode, the case lines only.
std::uint64_t read_case_lines(const std::string& path, const CaseCallback& on_case);

// Cuts the file back to its first `length` bytes. Throws core::Error(input).
void truncate_results(const std::string& path, std::uint64_t length);

}  // namespace results
