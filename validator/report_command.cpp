// `report`: the JUnit XML, HTML report and JSON summary of one or more results.jsonl files,
// merged: the shards of one run, or runs of several backends (the scoreboard).
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include "runner/sharding.hpp"
#include "validator/commands.hpp"

namespace validator {
namespace {

// The shards of one backend's runs (`run --shard K/N`) should be 1/N .. N/N, each once.
std::string shard_problems(const reports::BackendReport& b) {
    std::map<std::string, int> seen;
    std::set<int> counts;
    for (const reports::RunOfFile& r : b.runs) {
        const runner::Shard s = runner::parse_shard(r.run.shard.empty() ? "1/1" : r.run.shard);
        ++seen[s.text()];
        counts.insert(s.count);
    }
    if (counts.size() > 1) return "results of different --shard counts are merged";
    const int n = *counts.begin();
    if (n == 1 && seen["1/1"] > 1)
        return "several unsharded runs of this backend are merged: a case run by each is "
               "counted once per run";
    std::string problems;
    for (int k = 1; k <= n; ++k) {
        const std::string text = runner::Shard{k, n}.text();
        if (seen[text] == 1) continue;
        problems += (problems.empty() ? "" : ", ") + std::string("shard ") + text +
                    (seen[text] == 0 ? " is missing" : " appears more than once");
    }
    return problems;
}

void print_backend(const reports::BackendReport& b) {
    std::cout << b.label << ": " << reports::sum(b.totals) << " cases";
    for (results::Status s : results::kStatuses)
        if (b.totals[static_cast<std::size_t>(s)])
            std::cout << ", " << name(s) << " " << b.totals[static_cast<std::size_t>(s)];
    std::cout << " (" << b.runs.size()
              << (b.runs.size() == 1 ? " results file)\n" : " results files)\n");
    for (const reports::RunOfFile& r : b.runs)
        if (!r.run.error.empty()) std::cout << "  the run did not start: " << r.run.error << "\n";
    const std::string shards = shard_problems(b);
    if (!shards.empty()) std::cout << "  warning: " << shards << "\n";
}

// An output written over one of the results files would lose the source of truth.
void check_outputs(const ReportOptions& o) {
    for (const auto& output : {o.outputs.html, o.outputs.junit, o.outputs.summary}) {
        if (!output || !std::filesystem::exists(*output)) continue;
        for (const std::string& file : o.files)
            if (std::filesystem::equivalent(*output, file))
                throw std::invalid_argument("refusing to write a report over the results file " +
                                            file);
    }
}

}  // namespace

int run_report(const ReportOptions& o) {
    check_outputs(o);
    const reports::ReportData data = reports::collect_report(o.files);
    for (const reports::BackendReport& b : data.backends)
        print_backend(b);
    if (data.backends.size() > 1)
        std::cout << data.disagreements_total << " cases where the backends disagree\n";
    runner::write_reports(data, o.outputs);
    return 0;
}

}  // namespace validator
