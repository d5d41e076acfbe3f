#include "runner/report_files.hpp"

#include <iostream>

#include "io/json_output.hpp"
#include "reports/html_report.hpp"
#include "reports/junit_report.hpp"

namespace runner {

void write_reports(const reports::ReportData& data, const ReportOutputs& outputs) {
    if (outputs.junit) {
        io::write_text_file(*outputs.junit, reports::junit_xml(data));
        std::cout << "JUnit XML:   " << *outputs.junit << "\n";
    }
    if (outputs.html) {
        io::write_text_file(*outputs.html, reports::html_report(data, *outputs.html));
        std::cout << "HTML report: " << *outputs.html << "\n";
    }
    if (outputs.summary) {
        io::write_text_file(*outputs.summary, reports::summary_json(data).dump(1) + "\n");
        std::cout << "summary:     " << *outputs.summary << "\n";
    }
}

}  // namespace runner
