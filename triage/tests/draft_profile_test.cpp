// The drafted TOML is a profile the parser accepts as it is, saying what it was drafted from;
// a results file triage cannot read is a clear error.
#include "triage/draft_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "results/results_file.hpp"

namespace {

using core::ElementType;

// A case line of onnx.Mul-14 on f32 with this id and status.
results::CaseLine mul14_f32_line(const std::string& id, results::Status status) {
    results::CaseLine line;
    line.id = id;
    line.op = "onnx.Mul-14";
    line.dtype = "f32";
    line.verdict.status = status;
    return line;
}

std::string temp_dir() {
    char name[] = "/tmp/eltwise-triage-test-XXXXXX";
    return ::mkdtemp(name);
}

triage::Draft two_entries() {
    triage::Draft d;
    d.source = "results.jsonl";
    d.arch = "x86_64";
    triage::DraftEntry value;
    value.behaviours = {"subnormal_inputs_zero", "subnormal_results_flushed"};
    value.scope = {
        {"onnx.Mul-1", "onnx.Mul-6", "onnx.Mul-7", "onnx.Mul-13", "onnx.Mul-14", "onnx.Div-14"},
        {ElementType::f32},
        {core::BroadcastRule::none, core::BroadcastRule::numpy, core::BroadcastRule::onnx_legacy},
        {"runtime"}};
    value.cases = {"edge:onnx.Mul-14:f32:subnormal"};
    triage::DraftEntry status;
    status.status = results::Status::crashed;
    status.when = profiles::InputsWhen::int_min_by_minus_one;
    status.scope = {
        {"onnx.Div-14"}, {ElementType::i32}, {core::BroadcastRule::numpy}, {"runtime", "const-a"}};
    status.cases = {"random:onnx.Div-14:i32:numpy:seed=1:n=3", "x"};
    d.entries = {value, status};
    d.unexplained = {
        {"random:onnx.Mul-14:f32:numpy:seed=1:n=4", {{comparison::Category::value, 2}}, ""}};
    return d;
}

TEST(DraftToml, TheParserAcceptsItAsItIs) {
    const std::string toml = triage::draft_toml(two_entries());
    const profiles::Profile p = profiles::parse_profile(toml, "draft.toml");
    ASSERT_EQ(p.entries.size(), 2u) << toml;
    const profiles::Entry& v = p.entries[0];
    EXPECT_EQ(v.finding, "TODO");
    EXPECT_EQ(v.behaviours,
              (std::vector<std::string>{"subnormal_inputs_zero", "subnormal_results_flushed"}));
    // Every Mul version: a glob; Div-14 alone: its id. No broadcast key: the rules are all those
    // the ops can have.
    EXPECT_EQ(v.scope.ops, (std::vector<std::string>{"onnx.Mul-*", "onnx.Div-14"}));
    EXPECT_TRUE(v.scope.broadcast.empty());
    EXPECT_EQ(v.scope.graph_forms, std::vector<std::string>{"runtime"});
    EXPECT_EQ(v.condition.arch, "x86_64");
    const profiles::Entry& s = p.entries[1];
    EXPECT_EQ(s.status, results::Status::crashed);
    EXPECT_EQ(s.when, profiles::InputsWhen::int_min_by_minus_one);
    EXPECT_EQ(s.scope.graph_forms, (std::vector<std::string>{"runtime", "const-a"}));
    // The counts and an example in comments; what no model explains at the end.
    EXPECT_NE(toml.find("# explains 2 cases, e.g. random:onnx.Div-14:i32:numpy:seed=1:n=3"),
              std::string::npos);
    EXPECT_NE(toml.find("#   value: 1 case, e.g. random:onnx.Mul-14:f32:numpy:seed=1:n=4"),
              std::string::npos);
}

TEST(DraftToml, NoDeviationIsAnEmptyProfileThatSaysSo) {
    triage::Draft d;
    d.source = "results.jsonl";
    const std::string toml = triage::draft_toml(d);
    EXPECT_TRUE(profiles::parse_profile(toml, "draft.toml").entries.empty());
    EXPECT_NE(toml.find("(it has none): nothing to declare"), std::string::npos) << toml;
}

TEST(TriageResults, ARunWithoutDeviationsDraftsNothing) {
    const std::string dir = temp_dir();
    {
        results::ResultsFile f(dir + "/results.jsonl");
        f.append(results::RunLine{});
        f.append(mul14_f32_line("spec:x", results::Status::passed));
    }
    const triage::Draft d = triage::triage_results(dir + "/results.jsonl");
    EXPECT_EQ(d.deviations, 0);
    EXPECT_TRUE(d.entries.empty());
    std::filesystem::remove_all(dir);
}

TEST(TriageResults, ALineWithoutReproFilesIsNotTriagedWithItsReason) {
    const std::string dir = temp_dir();
    {
        results::ResultsFile f(dir + "/results.jsonl");
        f.append(results::RunLine{});
        results::CaseLine failed =
            mul14_f32_line("random:onnx.Mul-14:f32:numpy:seed=1:n=9", results::Status::failed);
        failed.verdict.message = "repro files not saved: 2000000 elements";
        f.append(failed);
    }
    const triage::Draft d = triage::triage_results(dir + "/results.jsonl");
    ASSERT_EQ(d.untriaged.size(), 1u);
    EXPECT_NE(d.untriaged[0].reason.find("no repro files (repro files not saved"),
              std::string::npos)
        << d.untriaged[0].reason;
    std::filesystem::remove_all(dir);
}

TEST(TriageResults, ABadResultsFileNamesItsLine) {
    const std::string dir = temp_dir();
    std::ofstream(dir + "/results.jsonl") << "{\"run\": {}}\nnot json\n";
    try {
        triage::triage_results(dir + "/results.jsonl");
        FAIL() << "no error";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("results.jsonl:2"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
