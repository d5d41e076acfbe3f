#include "reports/junit_report.hpp"

#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "reports/tests/results_fixture.hpp"

namespace reports {
namespace {

using io::testing::ScratchDir;
using testing::case_line;
using testing::run_line;
using testing::write_results;

pugi::xml_document parsed(const std::string& xml) {
    pugi::xml_document doc;
    const pugi::xml_parse_result r = doc.load_string(xml.c_str());
    EXPECT_TRUE(r) << r.description() << "\n" << xml.substr(0, 2000);
    return doc;
}

pugi::xml_node testcase_named(const pugi::xml_document& doc, const std::string& name) {
    return doc.select_node(("//testcase[@name='" + name + "']").c_str()).node();
}

// Issue 44: only new deviations fail; one the baseline accepts is skipped, its message naming the
// baseline; a declared one passes.
TEST(Junit, OnlyNewDeviationsFail) {
    ScratchDir dir;
    nlohmann::json accepted = case_line("a", "onnx.Mul-14", "u8", "FAILED");
    accepted["baseline"] = "accepted";
    accepted["message"] = "integer_saturation:3";
    nlohmann::json accepted_crash = case_line("ac", "onnx.Mul-14", "u8", "CRASHED");
    accepted_crash["baseline"] = "accepted";
    nlohmann::json fresh = case_line("n", "onnx.Mul-14", "u8", "FAILED");
    fresh["baseline"] = "new";
    const auto doc = parsed(junit_xml(collect_report(
        {write_results(dir, "r.jsonl",
                       {run_line("x", "1"), accepted, accepted_crash, fresh,
                        case_line("d", "onnx.Mul-14", "u8", "DEVIATES_AS_DECLARED")})})));
    const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
    EXPECT_EQ(suite.attribute("tests").as_int(), 4);
    EXPECT_EQ(suite.attribute("failures").as_int(), 1);
    EXPECT_EQ(suite.attribute("errors").as_int(), 0);
    EXPECT_EQ(suite.attribute("skipped").as_int(), 2);
    EXPECT_TRUE(testcase_named(doc, "n").child("failure"));
    const pugi::xml_node skipped = testcase_named(doc, "a").child("skipped");
    ASSERT_TRUE(skipped);
    EXPECT_STREQ(skipped.attribute("message").value(),
                 "accepted by the baseline (--expected): FAILED: integer_saturation:3");
    EXPECT_TRUE(testcase_named(doc, "ac").child("skipped"));
    EXPECT_FALSE(testcase_named(doc, "d").child("failure"));
    EXPECT_FALSE(testcase_named(doc, "d").child("skipped"));
}

TEST(Junit, StatusesMapToFailureErrorAndSkipped) {
    ScratchDir dir;
    nlohmann::json failed = case_line("f", "onnx.Div-14", "i32", "FAILED");
    failed["categories"] = {{"floor_vs_trunc", 2}, {"value", 1}};
    failed["message"] = "floor_vs_trunc:2 value:1\n  [0] ...";
    failed["replay"] = "eltwise-validate run --backend x --case f";
    failed["files"] = {"/r/cases/f/a.npy"};
    failed["minimal"] = {{"case", "f:shrink=1"},
                         {"shapes", {nlohmann::json::array(), nlohmann::json::array()}},
                         {"mismatches",
                          {{{"index", 0},
                            {"category", "floor_vs_trunc"},
                            {"a", "-7"},
                            {"b", "2"},
                            {"expected", "-3"},
                            {"actual", "-4"}}}}};
    const std::vector<nlohmann::json> lines = {
        run_line("x", "1"),
        case_line("p", "onnx.Div-14", "i32", "PASSED"),
        failed,
        case_line("ai", "onnx.Div-14", "i32", "ACCEPTED_INVALID"),
        case_line("rv", "onnx.Div-14", "i32", "REJECTED_VALID"),
        case_line("c", "onnx.Div-14", "i32", "CRASHED"),
        case_line("h", "onnx.Div-14", "i32", "HUNG"),
        case_line("pe", "onnx.Div-14", "i32", "PROTOCOL_ERROR"),
        case_line("e", "onnx.Div-14", "i32", "ERROR"),
        case_line("u", "onnx.Div-14", "i32", "UNSUPPORTED"),
        case_line("s", "onnx.Div-14", "i32", "SKIPPED")};
    const auto doc = parsed(junit_xml(collect_report({write_results(dir, "r.jsonl", lines)})));
    const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
    EXPECT_STREQ(suite.attribute("name").value(), "x 1");
    EXPECT_EQ(suite.attribute("tests").as_int(), 10);
    EXPECT_EQ(suite.attribute("failures").as_int(), 3);
    EXPECT_EQ(suite.attribute("errors").as_int(), 4);
    EXPECT_EQ(suite.attribute("skipped").as_int(), 2);
    EXPECT_EQ(doc.child("testsuites").attribute("tests").as_int(), 10);

    const pugi::xml_node f = testcase_named(doc, "f");
    EXPECT_STREQ(f.attribute("classname").value(), "onnx.Div-14.i32");
    EXPECT_STREQ(f.child("failure").attribute("type").value(), "floor_vs_trunc,value");
    const std::string body = f.child("failure").text().get();
    for (const char* part :
         {"categories: floor_vs_trunc 2, value 1", "minimal case f:shrink=1",
          "a=-7 b=2 expected -3, actual -4", "replay: eltwise-validate run --backend x --case f",
          "/r/cases/f/a.npy"})
        EXPECT_NE(body.find(part), std::string::npos) << part << " in\n" << body;
    EXPECT_STREQ(testcase_named(doc, "ai").child("failure").attribute("type").value(),
                 "ACCEPTED_INVALID");
    EXPECT_STREQ(testcase_named(doc, "rv").child("failure").attribute("type").value(),
                 "REJECTED_VALID");
    for (const char* id : {"c", "h", "pe", "e"})
        EXPECT_TRUE(testcase_named(doc, id).child("error")) << id;
    for (const char* id : {"u", "s"})
        EXPECT_TRUE(testcase_named(doc, id).child("skipped")) << id;
    EXPECT_TRUE(testcase_named(doc, "p").first_child() == pugi::xml_node());
}

TEST(Junit, PropertiesNameTheBackendSeedPolicyAndCommand) {
    ScratchDir dir;
    const auto doc = parsed(junit_xml(collect_report({write_results(
        dir, "r.jsonl",
        {run_line("planted", "ftz"), case_line("p", "onnx.Mul-7", "f32", "PASSED")})})));
    std::map<std::string, std::string> props;
    for (const pugi::xml_node p : doc.child("testsuites").child("testsuite").child("properties"))
        props[p.attribute("name").value()] = p.attribute("value").value();
    EXPECT_EQ(props["backend"], "planted");
    EXPECT_EQ(props["backend_version"], "ftz");
    EXPECT_EQ(props["seed"], "7");
    EXPECT_EQ(props["command_line"], "eltwise-validate run --backend planted");
    // every policy setting, the defaults where an older run line lacks one
    EXPECT_EQ(props["policy"],
              R"({"allow_ftz":false,"nan":"any","ulp":0,"undefined_refusal":"rerun"})");
    EXPECT_EQ(props["cases"], "1");
}

TEST(Junit, ExhaustivePassesFoldIntoOneTestcasePerGroup) {
    ScratchDir dir;
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    for (int i = 0; i < 3; ++i)
        lines.push_back(
            case_line("e" + std::to_string(i), "onnx.Mul-14", "u8", "PASSED", "exhaustive8"));
    lines.push_back(case_line("e9", "onnx.Mul-14", "u8", "FAILED", "exhaustive8"));
    lines.push_back(case_line("r", "onnx.Mul-14", "u8", "PASSED", "random"));
    const auto doc = parsed(junit_xml(collect_report({write_results(dir, "r.jsonl", lines)})));
    const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
    EXPECT_EQ(suite.attribute("tests").as_int(), 3);  // the fold, the failure, the random case
    const pugi::xml_node fold =
        testcase_named(doc, "exhaustive8: 3 PASSED cases of source exhaustive8 (folded)");
    ASSERT_TRUE(fold);
    EXPECT_STREQ(fold.attribute("classname").value(), "onnx.Mul-14.u8");
    EXPECT_DOUBLE_EQ(fold.attribute("time").as_double(), 1.5);
    EXPECT_TRUE(testcase_named(doc, "e9").child("failure"));
    EXPECT_TRUE(testcase_named(doc, "r"));
}

TEST(Junit, EachGraphFormIsASuiteOfItsOwnCases) {
    ScratchDir dir;
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    lines.push_back(case_line("r:0", "onnx.Div-14", "f32", "PASSED"));
    nlohmann::json b = case_line("const-b/r:0", "onnx.Div-14", "f32", "FAILED");
    b["graph_form"] = "const-b";
    lines.push_back(b);
    const auto doc = parsed(junit_xml(collect_report({write_results(dir, "r.jsonl", lines)})));
    const auto suites = doc.select_nodes("//testsuite");
    ASSERT_EQ(suites.size(), 2u);
    for (const pugi::xpath_node& suite : suites) {
        const std::string name = suite.node().attribute("name").value();
        EXPECT_EQ(suite.node().attribute("tests").as_int(), 1) << name;
        const bool form = name.ends_with("[const-b]");
        EXPECT_EQ(suite.node().attribute("failures").as_int(), form ? 1 : 0) << name;
        EXPECT_STREQ(suite.node().child("testcase").attribute("name").value(),
                     form ? "const-b/r:0" : "r:0");
    }
}

TEST(Junit, BudgetsFoldTheRestOfEachKind) {
    ScratchDir dir;
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    for (int i = 0; i < 50; ++i) {
        lines.push_back(case_line("p" + std::to_string(i), "onnx.Mul-7", "f32", "PASSED"));
        lines.push_back(case_line("f" + std::to_string(i), "onnx.Mul-7", "f32", "FAILED"));
    }
    JunitLimits limits;
    limits.passing_bytes = 1000;  // about 8 passing testcases
    limits.deviation_bytes = 3000;
    limits.detailed = 2;
    const std::string xml =
        junit_xml(collect_report({write_results(dir, "r.jsonl", lines)}), limits);
    const auto doc = parsed(xml);
    const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
    int listed_passing = 0, listed_failures = 0, folded_passing = 0, folded_failures = 0;
    for (const pugi::xml_node tc : suite.children("testcase")) {
        const std::string name = tc.attribute("name").value();
        const bool folded = name.find("(folded)") != std::string::npos;
        const bool failure = bool(tc.child("failure"));
        if (folded)
            (failure ? folded_failures : folded_passing) =
                std::stoi(name.substr(name.find(": ") + 2));
        else
            ++(failure ? listed_failures : listed_passing);
    }
    EXPECT_GT(listed_passing, 0);
    EXPECT_LT(listed_passing, 50);
    EXPECT_EQ(listed_passing + folded_passing, 50);  // nothing lost: the fold says how many
    EXPECT_EQ(listed_failures + folded_failures, 50);
    EXPECT_EQ(suite.attribute("failures").as_int(), listed_failures + 1);
    EXPECT_LT(xml.size(), 1000u + 3000u + 2 * 4096u + 2000u);
}

TEST(Junit, TextFromBackendsIsEscaped) {
    ScratchDir dir;
    nlohmann::json f = case_line("id<&>\"'", "onnx.Mul-7", "f32", "ERROR");
    f["message"] = std::string("]]></failure><x a=\"1\">\x01\x1f\t end");
    const std::string xml =
        junit_xml(collect_report({write_results(dir, "r.jsonl", {run_line("x", "1"), f})}));
    const auto doc = parsed(xml);
    const pugi::xml_node tc = doc.child("testsuites").child("testsuite").child("testcase");
    EXPECT_STREQ(tc.attribute("name").value(), "id<&>\"'");
    EXPECT_NE(std::string(tc.child("error").text().get()).find("]]></failure><x a=\"1\">??\t end"),
              std::string::npos);
    EXPECT_EQ(xml_escaped("a<b&c>\"'\x7f"), "a&lt;b&amp;c&gt;&quot;&apos;?");
}

}  // namespace
}  // namespace reports
