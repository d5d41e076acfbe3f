// report.html: one self-contained page (reports/report_page.html, inline CSS and JS, nothing
// fetched) with the summary JSON embedded: header, op-version x type matrix, categories,
// failures with their minimal cases and replay lines, and the scoreboard across backends.
#pragma once

#include <string>

#include "reports/report_data.hpp"

namespace reports {

// The page for `data`, to be written at `html_path`: links to repro files are made relative
// to its directory, so that a results directory moved as a whole keeps working links.
std::string html_report(const ReportData& data, const std::string& html_path);

}  // namespace reports
