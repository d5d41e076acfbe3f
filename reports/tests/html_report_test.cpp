#include "reports/html_report.hpp"

#include <gtest/gtest.h>

#include "core/op_table.hpp"
#include "reports/tests/results_fixture.hpp"

namespace reports {
namespace {

using io::testing::ScratchDir;
using testing::case_line;
using testing::run_line;
using testing::write_results;

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
    EXPECT_EQ(failure["files"][0], "cases/c/a.npy");  // relative to the page
    EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
}

TEST(Html, NeedsNothingFromTheNetwork) {
    ScratchDir dir;
    const std::string html = html_report(
        collect_report({write_results(dir, "r.jsonl", {run_line("x", "1")})}), dir.file("r.html"));
    for (const char* external : {"http://", "https://", "src=\"//", "href=\"//", "@import"})
        EXPECT_EQ(html.find(external), std::string::npos) << external;
}

// The worst case for size: every cell of every op version fails, each failure as large as the
// validator writes them (long message, float mismatches with bits, a minimal case, files).
TEST(Html, StaysUnderFiveMegabytesWhenEveryCellFails) {
    ScratchDir dir;
    nlohmann::json mismatch = {{"index", 123456},
                               {"category", "rounding"},
                               {"a", "-1.17549435e-38"},
                               {"b", "3.40282347e+38"},
                               {"expected", "-3.99999976"},
                               {"actual", "-4.00000000"},
                               {"a_bits", "0x80800000"},
                               {"b_bits", "0x7f7fffff"},
                               {"expected_bits", "0xc07fffff"},
                               {"actual_bits", "0xc0800000"}};
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    for (const core::OpVersion& op : core::op_versions())
        for (const core::ElementTypeInfo& t : core::kElementTypes)
            for (int k = 0; k < 30; ++k) {
                const std::string id = "random:" + op.id() + ":" + std::string(t.name) +
                                       ":numpy:seed=1:n=" + std::to_string(k);
                nlohmann::json f = case_line(id, op.id(), std::string(t.name), "FAILED");
                f["message"] = std::string(5000, 'm');
                f["mismatches"] = std::vector<nlohmann::json>(12, mismatch);
                f["minimal"] = {{"case", id + ":shrink=0.1.2.3.4.5.6.7.8.9"},
                                {"shapes", {{3, 1, 2}, {2}}},
                                {"mismatches", std::vector<nlohmann::json>(12, mismatch)},
                                {"message", std::string(5000, 'n')}};
                f["files"] = std::vector<std::string>(5, dir.file(std::string(120, 'p')));
                f["replay"] = "eltwise-validate run --backend-cmd '" + std::string(200, 'c') +
                              "' --case " + id;
                lines.push_back(f);
            }
    const std::string html = html_report(collect_report({write_results(dir, "r.jsonl", lines)}),
                                         dir.file("report.html"));
    EXPECT_LE(html.size(), 5u << 20);
    EXPECT_EQ(embedded_data(html)["backends"][0]["failures_total"], 12 * 13 * 30);
}

}  // namespace
}  // namespace reports
