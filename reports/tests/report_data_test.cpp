#include "reports/report_data.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "reports/tests/results_fixture.hpp"

namespace reports {
namespace {

using io::testing::ScratchDir;
using results::Status;
using testing::case_line;
using testing::run_line;
using testing::write_results;

std::int64_t at(const Counts& c, Status s) {
    return c[static_cast<std::size_t>(s)];
}

TEST(ReportData, CountsPerCellAndStatus) {
    ScratchDir dir;
    nlohmann::json failed = case_line("r:2", "onnx.Mul-14", "u8", "FAILED");
    failed["categories"] = {{"integer_saturation", 3}, {"value", 1}};
    const std::string file =
        write_results(dir, "r.jsonl",
                      {run_line("x", "1"), case_line("r:1", "onnx.Mul-14", "u8", "PASSED"), failed,
                       case_line("r:3", "onnx.Mul-14", "i8", "CRASHED"),
                       case_line("r:4", "onnx.Div-7", "f32", "UNSUPPORTED")});
    const ReportData data = collect_report({file});
    ASSERT_EQ(data.backends.size(), 1u);
    const BackendReport& b = data.backends[0];
    EXPECT_EQ(b.label, "x 1");
    EXPECT_EQ(sum(b.totals), 4);
    EXPECT_EQ(at(b.cells.at("onnx.Mul-14").at("u8"), Status::passed), 1);
    EXPECT_EQ(at(b.cells.at("onnx.Mul-14").at("u8"), Status::failed), 1);
    EXPECT_EQ(at(b.cells.at("onnx.Mul-14").at("i8"), Status::crashed), 1);
    EXPECT_EQ(at(b.cells.at("onnx.Div-7").at("f32"), Status::unsupported), 1);
    EXPECT_EQ(b.categories.at(comparison::Category::integer_saturation).cases, 1);
    EXPECT_EQ(b.categories.at(comparison::Category::integer_saturation).elements, 3);
    EXPECT_EQ(b.failures_total, 2);  // FAILED and CRASHED; UNSUPPORTED is no finding
    ASSERT_EQ(b.failures.size(), 2u);
    EXPECT_EQ(b.failures[0].id, "r:2");
    EXPECT_TRUE(data.disagreements.empty());
}

// Issue 44: the three kinds of deviation a reader tells apart, from the case lines' statuses and
// their "baseline" key (a line of an older run has none: its deviation counts as new).
TEST(ReportData, SeparatesNewDeclaredAndAcceptedDeviations) {
    ScratchDir dir;
    nlohmann::json accepted = case_line("r:2", "onnx.Mul-14", "u8", "FAILED");
    accepted["baseline"] = "accepted";
    nlohmann::json fresh = case_line("r:3", "onnx.Mul-14", "u8", "CRASHED");
    fresh["baseline"] = "new";
    nlohmann::json passes = case_line("r:5", "onnx.Mul-14", "u8", "PASSED");
    passes["baseline"] = "now_passes";
    const std::string file =
        write_results(dir, "r.jsonl",
                      {run_line("x", "1"), accepted, fresh, passes,
                       case_line("r:4", "onnx.Mul-14", "u8", "DEVIATES_AS_DECLARED"),
                       case_line("r:6", "onnx.Mul-14", "u8", "FAILED")});  // older line: no key
    const ReportData data = collect_report({file});
    const BackendReport& b = data.backends.at(0);
    EXPECT_EQ(b.failures_total, 3);  // the deviations: r:2, r:3, r:6
    EXPECT_EQ(b.accepted_total, 1);
    EXPECT_EQ(b.declared_total, 1);
    ASSERT_EQ(b.failures.size(), 4u);  // listed: the three deviations and the declared case
    EXPECT_EQ(b.failures[0].baseline, results::Baseline::accepted);
    EXPECT_EQ(b.failures[1].baseline, results::Baseline::new_);
    EXPECT_EQ(b.failures[2].id, "r:4");
    EXPECT_EQ(b.failures[3].baseline, results::Baseline::none);
    const nlohmann::json summary = summary_json(data)["backends"][0];
    EXPECT_EQ(summary["new_total"], 2);
    EXPECT_EQ(summary["accepted_total"], 1);
    EXPECT_EQ(summary["declared_total"], 1);
    EXPECT_EQ(summary["failures"][0]["baseline"], "accepted");
    nlohmann::json bad = case_line("r:7", "onnx.Mul-14", "u8", "FAILED");
    bad["baseline"] = "maybe";
    EXPECT_THROW(collect_report({write_results(dir, "bad.jsonl", {run_line("x", "1"), bad})}),
                 core::Error);
}

TEST(ReportData, WorstStatusOrdersCrashesBeforeFailuresBeforePasses) {
    Counts c{};
    EXPECT_EQ(worst_status(c), Status::passed);
    c[static_cast<std::size_t>(Status::passed)] = 5;
    c[static_cast<std::size_t>(Status::unsupported)] = 1;
    EXPECT_EQ(worst_status(c), Status::unsupported);
    c[static_cast<std::size_t>(Status::failed)] = 1;
    EXPECT_EQ(worst_status(c), Status::failed);
    c[static_cast<std::size_t>(Status::hung)] = 1;
    EXPECT_EQ(worst_status(c), Status::hung);
}

TEST(ReportData, ShardsOfOneBackendMergeAndBackendsDisagree) {
    ScratchDir dir;
    const std::string shard1 = write_results(
        dir, "s1.jsonl", {run_line("opt", "1"), case_line("c:1", "onnx.Mul-7", "f32", "PASSED")});
    const std::string shard2 =
        write_results(dir, "s2.jsonl",
                      {run_line("opt", "1"), case_line("c:2", "onnx.Mul-7", "f32", "PASSED"),
                       case_line("c:3", "onnx.Mul-7", "f32", "PASSED")});
    const std::string other =
        write_results(dir, "o.jsonl",
                      {run_line("bug", "2"), case_line("c:1", "onnx.Mul-7", "f32", "PASSED"),
                       case_line("c:2", "onnx.Mul-7", "f32", "FAILED"),
                       case_line("c:3", "onnx.Mul-7", "f32", "UNSUPPORTED")});
    const ReportData data = collect_report({shard1, other, shard2});
    ASSERT_EQ(data.backends.size(), 2u);
    EXPECT_EQ(data.backends[0].label, "opt 1");
    EXPECT_EQ(sum(data.backends[0].totals), 3);
    EXPECT_EQ(data.backends[0].runs.size(), 2u);
    // c:1 agrees; c:3 was not judged by "bug"; only c:2 differs.
    ASSERT_EQ(data.disagreements_total, 1);
    EXPECT_EQ(data.disagreements[0]["case"], "c:2");
    EXPECT_EQ(data.disagreements[0]["statuses"]["opt 1"], "PASSED");
    EXPECT_EQ(data.disagreements[0]["statuses"]["bug 2"], "FAILED");
}

TEST(ReportData, BackendsBehindOneHelloAreToldApartByTheirCommands) {
    ScratchDir dir;
    const auto run_of = [](const std::string& command) {
        nlohmann::json r = run_line("numpy", "1.24.2");
        r["run"]["backend_command"] = command;
        return r;
    };
    const std::string ftz =
        write_results(dir, "a.jsonl", {run_of("/usr/bin/python3 /x/planted.py --bug ftz")});
    const std::string floor =
        write_results(dir, "b.jsonl", {run_of("/usr/bin/python3 /x/planted.py --bug floor")});
    const std::string floor_shard =
        write_results(dir, "c.jsonl", {run_of("/usr/bin/python3 /x/planted.py --bug floor")});
    nlohmann::json labelled = run_of("/usr/bin/python3 /x/planted.py --bug ftz");
    labelled["run"]["label"] = "mine";
    const std::string mine = write_results(dir, "d.jsonl", {labelled});
    const ReportData data = collect_report({ftz, floor, floor_shard, mine});
    ASSERT_EQ(data.backends.size(), 3u);
    EXPECT_EQ(data.backends[0].label, "numpy 1.24.2 (python3 planted.py --bug ftz)");
    EXPECT_EQ(data.backends[1].label, "numpy 1.24.2 (python3 planted.py --bug floor)");
    EXPECT_EQ(data.backends[1].runs.size(), 2u);
    EXPECT_EQ(data.backends[2].label, "mine");
}

// Issue 45: one library on two GPUs (or on a GPU and without one) is one column each, named by
// its GPU; the same GPU's shards stay one column.
TEST(ReportData, EachGpuOfOneBackendIsItsOwnColumn) {
    ScratchDir dir;
    const auto run_on = [](const std::string& architecture) {
        nlohmann::json r = run_line("ort-web", "1.30.0");
        r["run"]["platform"] = {{"os", "Linux"}, {"arch", "x86_64"}, {"cpu_model", "Xeon"}};
        if (!architecture.empty())
            r["run"]["platform"]["gpu"] = {{"api", "webgpu"}, {"architecture", architecture}};
        return r;
    };
    const std::string cpu = write_results(dir, "a.jsonl", {run_on("")});
    const std::string soft = write_results(dir, "b.jsonl", {run_on("swiftshader")});
    const std::string soft2 = write_results(dir, "c.jsonl", {run_on("swiftshader")});
    const std::string other = write_results(dir, "d.jsonl", {run_on("ampere")});
    const ReportData data = collect_report({cpu, soft, soft2, other});
    ASSERT_EQ(data.backends.size(), 3u);
    EXPECT_EQ(data.backends[0].label, "ort-web 1.30.0");
    EXPECT_EQ(data.backends[1].label, "ort-web 1.30.0 (webgpu on swiftshader)");
    EXPECT_EQ(data.backends[1].runs.size(), 2u);
    EXPECT_EQ(data.backends[2].label, "ort-web 1.30.0 (webgpu on ampere)");
}

TEST(ReportData, FailureListsAreCappedPerCellAndTrimmed) {
    ScratchDir dir;
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    for (int i = 0; i < 30; ++i) {
        nlohmann::json f = case_line("f:" + std::to_string(i), "onnx.Div-14", "i32", "FAILED");
        f["message"] = std::string(50, 'm');
        f["mismatches"] = nlohmann::json::array();
        for (int k = 0; k < 12; ++k)
            f["mismatches"].push_back({{"index", k}});
        lines.push_back(f);
    }
    lines.push_back(case_line("g:0", "onnx.Div-14", "i64", "FAILED"));
    Limits limits;
    limits.failures_per_cell = 4;
    limits.mismatches = 3;
    limits.message_chars = 10;
    const BackendReport b =
        collect_report({write_results(dir, "r.jsonl", lines)}, limits).backends[0];
    EXPECT_EQ(b.failures_total, 31);
    ASSERT_EQ(b.failures.size(), 5u);  // 4 of the i32 cell, and the i64 cell still shows its one
    EXPECT_EQ(b.failures[4].id, "g:0");
    EXPECT_EQ(b.failures[0].verdict.mismatches.size(), 3u);
    EXPECT_EQ(b.failures[0].verdict.message, std::string(10, 'm') + " ...");
}

TEST(ReportData, FailuresListedStayWithinTheLimitWhenGraphFormsAddBackends) {
    ScratchDir dir;
    std::vector<nlohmann::json> lines = {run_line("x", "1")};
    for (const char* form : {"runtime", "const-a", "const-b", "const-ab", "dynamic"})
        for (const char* dtype : {"i32", "i64"})
            for (int i = 0; i < 20; ++i) {
                const std::string id = std::string("f:") + dtype + std::to_string(i);
                nlohmann::json f =
                    case_line(std::string(form) == "runtime" ? id : form + ("/" + id),
                              "onnx.Div-14", dtype, "FAILED");
                f["graph_form"] = form;
                lines.push_back(f);
            }
    Limits limits;
    limits.failures = 30;  // 5 backends (one per form): 6 failures each
    const ReportData data = collect_report({write_results(dir, "r.jsonl", lines)}, limits);
    ASSERT_EQ(data.backends.size(), 5u);
    for (const BackendReport& b : data.backends) {
        EXPECT_EQ(b.failures_total, 40);
        ASSERT_EQ(b.failures.size(), 6u) << b.label;
        // the first failures of both cells, alternately kept: i32 0-2 and i64 0-2
        EXPECT_EQ(b.failures[0].dtype, "i32");
        EXPECT_EQ(b.failures[3].dtype, "i64");
        const std::string last = b.failures[5].id;
        EXPECT_TRUE(last.ends_with("f:i642")) << last;
    }
}

TEST(ReportData, ARunThatNeverStartedIsItsOwnBackend) {
    ScratchDir dir;
    const std::string file = write_results(
        dir, "r.jsonl", {{{"run", {{"error", "PROTOCOL_ERROR: exited before its hello"}}}}});
    const ReportData data = collect_report({file});
    ASSERT_EQ(data.backends.size(), 1u);
    EXPECT_FALSE(data.backends[0].claims.has_value());
    EXPECT_EQ(data.backends[0].runs[0].run.error, "PROTOCOL_ERROR: exited before its hello");
}

TEST(ReportData, MalformedFilesAreNamedWithTheirLine) {
    ScratchDir dir;
    const auto message = [&](const std::vector<std::string>& lines) {
        const std::string path = dir.file("bad.jsonl");
        std::ofstream(path) << [&] {
            std::string text;
            for (const std::string& l : lines)
                text += l + "\n";
            return text;
        }();
        try {
            collect_report({path});
        } catch (const core::Error& e) {
            EXPECT_EQ(e.kind(), core::ErrorKind::input);
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string run = run_line("x", "1").dump();
    EXPECT_NE(message({run, "{\"case\":\"c\""}).find("bad.jsonl:2: not a results line"),
              std::string::npos);
    EXPECT_NE(message({run, case_line("c", "onnx.Mul-7", "f32", "GREAT").dump()})
                  .find("unknown status 'GREAT'"),
              std::string::npos);
    EXPECT_NE(message({case_line("c", "onnx.Mul-7", "f32", "PASSED").dump()})
                  .find("bad.jsonl:1: not a results line (a case line before the run line)"),
              std::string::npos);
    EXPECT_NE(message({}).find("no run line"), std::string::npos);
    try {
        collect_report({dir.file("missing.jsonl")});
        ADD_FAILURE() << "no error for a missing file";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("missing.jsonl"), std::string::npos);
    }
}

TEST(ReportData, SummaryHasTheTwelveOpVersionsAndTheirSpecTypes) {
    ScratchDir dir;
    const nlohmann::json s = summary_json(collect_report({write_results(
        dir, "r.jsonl", {run_line("x", "1"), case_line("c", "onnx.Mul-1", "f32", "PASSED")})}));
    EXPECT_EQ(s["format"], "eltwise-report-summary/1");
    ASSERT_EQ(s["op_versions"].size(), 12u);
    EXPECT_EQ(s["op_versions"][0]["id"], "onnx.Mul-1");
    // ONNX Mul-1 spec: "Constrain input and output types to float tensors": f16, f32, f64.
    EXPECT_EQ(s["op_versions"][0]["dtypes"], nlohmann::json({"f16", "f32", "f64"}));
    EXPECT_EQ(s["scoreboard"][0]["cells"][0]["passed"], 1);
    EXPECT_EQ(s["scoreboard"][0]["cells"][0]["pass_rate"], 1.0);
    EXPECT_EQ(s["scoreboard"][1]["cells"][0]["pass_rate"], nullptr);  // nothing run there
    EXPECT_EQ(s["statuses"][0], "CRASHED");
    EXPECT_EQ(s["statuses"].back(), "PASSED");
}

// Found by fuzz/results_fuzzer.cpp: a backend name that was not a string threw nlohmann's
// type_error out of the report. Fields the reports read must have their type, or the line is
// named as malformed.
TEST(ReportData, FieldsOfTheWrongJsonTypeAreNamedWithTheirLine) {
    ScratchDir dir;
    const auto message = [&](const nlohmann::json& run, const nlohmann::json& line) {
        const std::string path = dir.file("typed.jsonl");
        std::ofstream(path) << run.dump() << "\n" << line.dump() << "\n";
        try {
            collect_report({path});
        } catch (const core::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const nlohmann::json run = run_line("x", "1");
    const nlohmann::json ok = case_line("c", "onnx.Mul-7", "f32", "FAILED");
    EXPECT_EQ(message(run, ok), "no error");
    nlohmann::json bad_run = run;
    bad_run["run"]["backend"]["name"] = 5;
    EXPECT_NE(message(bad_run, ok)
                  .find("typed.jsonl:1: not a results line (run.backend.name is "
                        "not a string)"),
              std::string::npos);
    bad_run = run;
    bad_run["run"]["backend"]["ops"] = {{"onnx.Mul-7", {"f32", 3}}};
    EXPECT_NE(message(bad_run, ok)
                  .find("run.backend.ops.onnx.Mul-7 has an item that is not a "
                        "string"),
              std::string::npos);
    nlohmann::json bad = ok;
    bad["message"] = nlohmann::json::array();
    EXPECT_NE(message(run, bad).find("typed.jsonl:2: not a results line (message is not a string)"),
              std::string::npos);
    bad = ok;
    bad["categories"] = {{"value", 1.5}};
    EXPECT_NE(message(run, bad).find("categories.value is not a count"), std::string::npos);
    bad["categories"] = {{"value", (std::int64_t{1} << 40) + 1}};
    EXPECT_NE(message(run, bad).find("categories.value is not a count"), std::string::npos);
    // A category's name is read back through comparison's table: a misspelt one is named.
    bad["categories"] = {{"valeu", 1}};
    EXPECT_NE(message(run, bad).find("categories names 'valeu', which is not a mismatch category"),
              std::string::npos);
    bad = ok;
    bad["mismatches"] = {{{"index", 0}, {"category", "Nan"}}};
    EXPECT_NE(message(run, bad).find(
                  "mismatches[].category names 'Nan', which is not a mismatch category"),
              std::string::npos);
    bad = ok;
    bad["minimal"] = {{"mismatches", {{{"index", "zero"}}}}};
    EXPECT_NE(message(run, bad).find("minimal.mismatches[].index is not an integer"),
              std::string::npos);
}

}  // namespace
}  // namespace reports
