// What every report shows, gathered in one pass over results.jsonl files: per backend, the
// status counts per (op version, type), mismatch categories, the first failures, and across
// backends the cases where they disagree. Only counts and capped lists are kept, so memory does
// not grow with the passing cases.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/case_status.hpp"
#include "results/results_line.hpp"

namespace reports {

// Cases per status, indexed by the results::Status value.
using Counts = std::array<std::int64_t, results::kStatuses.size()>;

results::Status worst_status(const Counts& counts);  // PASSED when all are zero
std::int64_t sum(const Counts& counts);

// Caps that keep the HTML report under 5 MB for any run: a listed failure takes at most about
// 4 KB, and 1000 of them are listed in all.
struct Limits {
    std::size_t failures = 1000;         // failures listed in all, shared among the backends
    std::size_t failures_per_cell = 25;  // per (op version, type): every failing cell shows some
    std::size_t mismatches = 8;          // of the minimal case when there is one, else the case's
    std::size_t message_chars = 600;     // the message repeats the first mismatches as text
    std::size_t disagreements = 1000;
};

struct CategoryCount {
    std::int64_t cases = 0;
    std::int64_t elements = 0;
};

struct RunOfFile {
    std::string file;
    results::RunLine run;  // without its backend: the report has the backend's own entry
};

// All results files whose run line names the same backend (name and version): the shards of
// one run, or reruns. A file whose run never started is a backend of its own.
struct BackendReport {
    std::string label;  // "name version", unique in the report
    std::string name, version;
    std::string graph_form = "runtime";  // a backend's other forms are backends of their own
    // The hello's ops; none when the run did not start.
    std::optional<std::map<std::string, std::vector<std::string>>> claims;
    std::vector<RunOfFile> runs;
    Counts totals{};
    std::map<std::string, std::map<std::string, Counts>> cells;  // op id -> dtype -> counts
    std::map<comparison::Category, CategoryCount> categories;
    // Trimmed case lines, capped: the deviations, and the cases whose deviation the profile
    // declares (DEVIATES_AS_DECLARED), so that a reader can list each of the three kinds.
    std::vector<results::CaseLine> failures;
    std::int64_t failures_total = 0;  // deviations (findings): new, or accepted by the baseline
    std::int64_t accepted_total = 0;  // of those, accepted by the run's --expected baseline
    std::int64_t declared_total = 0;  // DEVIATES_AS_DECLARED
    double case_seconds = 0;          // the cases' own times, summed: cases per second
    std::int64_t compilations = 0;    // what its answers said they compiled (PROTOCOL.md 9, 19)
};

struct ReportData {
    std::string generated;  // UTC, ISO 8601
    std::vector<BackendReport> backends;
    std::vector<nlohmann::json> disagreements;  // {"case","op","dtype","statuses":{label: s}}
    std::int64_t disagreements_total = 0;
    // Cases one backend judged differently in two graph forms:
    // {"backend","case" (without the form),"op","dtype","forms":{form: status}}
    std::vector<nlohmann::json> form_disagreements;
    std::int64_t form_disagreements_total = 0;
};

// Reads the files (see read_results for the errors it throws). Throws core::Error(input) for
// a file without a run line.
ReportData collect_report(const std::vector<std::string>& files, const Limits& limits = {});

// The machine-readable summary (format "eltwise-report-summary/1", described in README).
nlohmann::json summary_json(const ReportData& data);

}  // namespace reports
