// Reading results.jsonl files (backends/PROTOCOL.md section 12) line by line, so that a run of
// millions of cases never has to fit in memory as JSON.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace reports {

// Calls on_run for each `{"run": {...}}` line (with its inner object) and on_case for every
// other line, in file order. Throws core::Error(input) naming the file and the line number for
// a file that cannot be opened, a line that is not a JSON object, a case line before the run
// line, a case line without `case`, `op`, `dtype`, `source` or a known `status`, and a field
// the reports read that has another JSON type than results files give it (a `message` that is
// not a string, a category count that is not an integer in [0, 2^40], ...). A last
// line cut short (a run killed mid-write on a full disk) is an error too: it is named, so that
// nobody reads a partial report as a whole one.
void read_results(const std::string& path,
                  const std::function<void(const nlohmann::json& run)>& on_run,
                  const std::function<void(const nlohmann::json& line)>& on_case);

}  // namespace reports
