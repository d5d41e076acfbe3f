// JUnit XML for CI test reporters (Jenkins, GitLab, GitHub): one <testsuite> per backend, one
// <testcase> per case, classname "onnx.Div-14.i32" and name the case id, all detail in the body
// (GitLab shows nothing else).
#pragma once

#include <cstddef>
#include <string>

#include "reports/report_data.hpp"

namespace reports {

// How much of a file listed cases may fill; the rest of each kind is folded into one testcase
// per (op version, type, source, status) whose name gives the count. With the folded testcases
// (at most one per group) a file stays under GitLab's 30 MB for any number of cases.
struct JunitLimits {
    std::size_t deviation_bytes = 18u << 20;  // FAILED ... ERROR, each a <failure> or <error>
    std::size_t passing_bytes = 6u << 20;     // PASSED, except exhaustive sources: always folded
    std::size_t skipped_bytes = 3u << 20;     // UNSUPPORTED and SKIPPED
    std::size_t detailed = 500;               // deviations with the full body; later ones short
    std::size_t detail_chars = 4096;          // body of a detailed deviation
    std::size_t short_chars = 600;            // body of a later one
};

// The document for `data`, re-reading the results files named in its runs.
std::string junit_xml(const ReportData& data, const JunitLimits& limits = {});

// XML 1.0 text: & < > " ' escaped, control characters other than tab, newline and carriage
// return (not allowed in XML 1.0 at all) replaced by '?'.
std::string xml_escaped(const std::string& text);

}  // namespace reports
