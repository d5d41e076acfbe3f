// results.jsonl files through the one reader: as `run --resume` reads them, and as `report` reads
// them, merged with a well-formed run of another backend, then turned into every report: summary
// JSON, JUnit XML and the HTML page.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "reports/html_report.hpp"
#include "reports/junit_report.hpp"
#include "reports/report_data.hpp"
#include "results/results_file.hpp"

namespace {

// A second backend, so that the disagreement table is built as well.
const std::string& other_backend_file() {
    static const std::string path = fuzz::write_input_file(
        "other.jsonl",
        R"({"run":{"backend":{"name":"other","version":"1","ops":{"onnx.Mul-14":["u8"]}},"seed":1}})"
        "\n"
        R"({"case":"random:onnx.Mul-14:u8:numpy:0","op":"onnx.Mul-14","dtype":"u8","source":"random","status":"PASSED"})"
        "\n");
    return path;
}

// What --resume reads: the run line, then the case lines, a cut last line left out.
void read_as_resume(const std::string& path) {
    try {
        results::read_run_line(path);
        results::read_case_lines(path, [](const results::CaseLine&) {});
    } catch (const core::Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = fuzz::write_input_file(
        "results.jsonl", std::string_view(reinterpret_cast<const char*>(data), size));
    read_as_resume(path);
    reports::ReportData report;
    try {
        report = reports::collect_report({path, other_backend_file()});
    } catch (const core::Error&) {
        return 0;
    }
    reports::summary_json(report).dump();
    reports::junit_xml(report);
    reports::html_report(report, fuzz::scratch_dir() + "/report.html");
    return 0;
}
