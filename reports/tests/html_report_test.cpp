#include "reports/html_report.hpp"

#include <gtest/gtest.h>

#include "reports/tests/results_fixture.hpp"

namespace reports {
namespace {

using testing::case_line;
using testing::run_line;
using testing::write_results;
using validator::testing::ScratchDir;

// The JSON embedded between the data script's tags, as the page reads it.
nlohmann::json embedded_data(const std::string& html) {
    const std::string open = "<script id=\"report-data\" type=\"application/json\">";
    const std::size_t begin = html.find(open);
    EXPECT_NE(begin, std::string::npos);
    const std::size_t start = begin + open.size();
    const std::size_t end = html.find("</script>", start);
    return nlohmann::json::parse(html.substr(start, end - start));
}

TEST(Html, EmbedsTheSummaryWithNothingThatEndsTheScript) {
    ScratchDir dir;
    nlohmann::json f = case_line("c", "onnx.Mul-7", "f32", "FAILED");
    f["message"] = "</script><script>alert(1)</script><!--";
    f["files"] = {dir.file("out/cases/c/a.npy")};
    const std::string html =
        html_report(collect_report({write_results(dir, "r.jsonl", {run_line("x", "1"), f})}),
                    dir.file("out/report.html"));
    const nlohmann::json data = embedded_data(html);
    EXPECT_EQ(data["format"], "eltwise-report-summary/1");
    const nlohmann::json& failure = data["backends"][0]["failures"][0];
    EXPECT_EQ(failure["message"], "</script><script>alert(1)</script><!--");
    EXPECT_EQ(failure["links"][0], "cases/c/a.npy");
    EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
}

TEST(Html, NeedsNothingFromTheNetwork) {
    ScratchDir dir;
    const std::string html = html_report(
        collect_report({write_results(dir, "r.jsonl", {run_line("x", "1")})}), dir.file("r.html"));
    for (const char* external : {"http://", "https://", "src=\"//", "href=\"//", "@import"})
        EXPECT_EQ(html.find(external), std::string::npos) << external;
}

}  // namespace
}  // namespace reports
