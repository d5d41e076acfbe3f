// Writing the reports of a run or of `report`: each file replaced in one step.
#pragma once

#include <optional>
#include <string>

#include "reports/report_data.hpp"

namespace runner {

// Where the reports go; an absent path is not written.
struct ReportOutputs {
    std::optional<std::string> html, junit, summary;
};

// Writes each requested file and prints its path. Throws core::Error(input) naming a file that
// cannot be written; files already written stay.
void write_reports(const reports::ReportData& data, const ReportOutputs& outputs);

}  // namespace runner
