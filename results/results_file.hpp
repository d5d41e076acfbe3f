// results.jsonl (backends/PROTOCOL.md section 12), its one writer and its one reader. The writer
// appends one JSON object per line, each with a single write() as soon as its case ends, so that
// a run killed at any moment leaves complete lines.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/results_line.hpp"

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

    void append(const RunLine& line);
    void append(const CaseLine& line);

  private:
    void append_json(const nlohmann::json& line);
    std::string path_;
    int fd_ = -1;
};

// The first line, a run line. Throws core::Error(input) naming the
// file when it cannot be read, or when its first line is not a complete run line.
RunLine read_run_line(const std::string& path);

using RunCallback = std::function<void(const RunLine& run)>;
using CaseCallback = std::function<void(const CaseLine& line)>;

enum class ReadMode {
    // Reports: every line must be whole, run lines may recur (files of several shards joined).
    report,
    // --resume: one run line, first; a last line without its newline (the run was killed while
    // writing it) is not passed on.
    resume,
};

// Calls on_run for each run line and on_case for every other line, in file order, as the structs
// of results_line.hpp; returns the length in bytes of the lines read. A line must be a JSON object,
// a case line must come after a run line, and every field must have its type
// (case_line_from_json). Throws core::Error(input) naming the file and the line for a file that
// cannot be read, a line that fails these checks, and a callback that throws anything but
// core::Error. Reads line by line: a run of millions of cases never has to fit in memory.
std::uint64_t read_results(const std::string& path, const RunCallback& on_run,
                           const CaseCallback& on_case, ReadMode mode = ReadMode::report);
// read_results in resume mode, the case lines only.
std::uint64_t read_case_lines(const std::string& path, const CaseCallback& on_case);

// Cuts the file back to its first `length` bytes. Throws core::Error(input).
void truncate_results(const std::string& path, std::uint64_t length);

}  // namespace results
