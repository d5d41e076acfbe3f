// `report`: the JUnit XML, HTML report and JSON summary of one or more results.jsonl files,
// merged: the shards of one run, or runs of several backends (the scoreboard).
#include <iostream>

#include "validator/commands.hpp"

namespace validator {
namespace {

void print_backend(const reports::BackendReport& b) {
    std::cout << b.label << ": " << reports::sum(b.totals) << " cases";
    for (Status s : kStatuses)
        if (b.totals[static_cast<std::size_t>(s)])
            std::cout << ", " << name(s) << " " << b.totals[static_cast<std::size_t>(s)];
    std::cout << " (" << b.runs.size()
              << (b.runs.size() == 1 ? " results file)\n" : " results files)\n");
    for (const nlohmann::json& run : b.runs)
        if (run.contains("error"))
            std::cout << "  the run did not start: " << run["error"].get<std::string>() << "\n";
}

}  // namespace

int run_report(const ReportOptions& o) {
    const reports::ReportData data = reports::collect_report(o.files);
    for (const reports::BackendReport& b : data.backends)
        print_backend(b);
    if (data.backends.size() > 1)
        std::cout << data.disagreements_total << " cases where the backends disagree\n";
    write_reports(data, o.outputs);
    return 0;
}

}  // namespace validator
