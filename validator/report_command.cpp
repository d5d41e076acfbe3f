// `report`: the JUnit XML, HTML report and JSON summary of one or more results.jsonl files,
// merged: the shards of one run, or runs of several backends (the scoreboard).
#include <filesystem>
#include <iostream>
#include <stdexcept>

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
    write_reports(data, o.outputs);
    return 0;
}

}  // namespace validator
