#include "reports/html_report.hpp"

#include <filesystem>
#include <stdexcept>

#include "core/embedded_file.hpp"

namespace reports {

const std::vector<core::EmbeddedFile>& embedded_files();  // report_page.html (CMake)

namespace {

constexpr std::string_view kDataMarker = "/*ELTWISE_REPORT_DATA*/";

std::string relative_link(const std::string& file, const std::filesystem::path& dir) {
    const std::filesystem::path p = std::filesystem::absolute(file).lexically_normal();
    const std::filesystem::path rel = p.lexically_relative(dir);
    return rel.empty() ? p.string() : rel.generic_string();
}

// The page links the repro files relative to itself; the absolute paths stay in the summary.
ReportData with_relative_files(ReportData data, const std::filesystem::path& dir) {
    for (BackendReport& backend : data.backends)
        for (results::CaseLine& failure : backend.failures)
            for (std::string& f : failure.files)
                f = relative_link(f, dir);
    return data;
}

// JSON inside <script>: no '<' at all, so neither "</script>" nor "<!--" can end it early.
std::string script_safe(const std::string& json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json)
        out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out;
}

}  // namespace

std::string html_report(const ReportData& data, const std::string& html_path) {
    const nlohmann::json summary = summary_json(with_relative_files(
        data, std::filesystem::absolute(html_path).lexically_normal().parent_path()));
    const std::string page(core::embedded_file(embedded_files(), "report_page.html"));
    const std::size_t at = page.find(kDataMarker);
    if (at == std::string::npos) throw std::logic_error("report_page.html has no data marker");
    return page.substr(0, at) +
           script_safe(summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
           page.substr(at + kDataMarker.size());
}

}  // namespace reports
