// The judge's verdicts on hand-made answers; every expected value is computed by hand.
#include "judging/case_judge.hpp"

#include <gtest/gtest.h>

#include "core/op_table.hpp"

namespace {

core::CaseRecord f32_case(const char* op, std::vector<float> a, std::vector<float> b) {
    core::CaseRecord c;
    c.op = core::find_op_version(op);
    const core::Shape shape{static_cast<std::int64_t>(a.size())};
    c.a = core::make_tensor<core::ElementType::f32>(shape, a);
    c.b = core::make_tensor<core::ElementType::f32>(shape, b);
    return c;
}

backends::Result ok(std::vector<float> values) {
    backends::Result r;
    r.outcome = backends::Outcome::ok;
    r.output = core::make_tensor<core::ElementType::f32>({static_cast<std::int64_t>(values.size())},
                                                         values);
    return r;
}

results::Verdict judge(const core::CaseRecord& c, const backends::Result& answer,
                       const judging::JudgeSettings& settings = {}) {
    const judging::PreparedCase p = judging::prepare_case(*c.op, c);
    const core::OpOutput expected = c.valid ? judging::expected_output(p) : core::OpOutput{};
    results::Verdict v = judging::judge_answer(p, answer, expected, settings);
    judging::declare_status(v, p, settings);
    return v;
}

TEST(CaseJudge, ExpectedOutputIsTheSpecs) {
    const core::CaseRecord c = f32_case("onnx.Div-14", {1, 6, -1}, {2, 3, 0});
    const core::OpOutput e = judging::expected_output(judging::prepare_case(*c.op, c));
    EXPECT_EQ(e.value.values<float>()[0], 0.5f);
    EXPECT_EQ(e.value.values<float>()[1], 2.0f);
    EXPECT_EQ(e.value.values<float>()[2], -INFINITY);
}

TEST(CaseJudge, ComparesEveryElementAndNamesTheCategory) {
    const core::CaseRecord c = f32_case("onnx.Mul-14", {-1, 2}, {0, 3});  // -0, 6
    EXPECT_EQ(judge(c, ok({-0.0f, 6})).status, results::Status::passed);
    const results::Verdict v = judge(c, ok({0.0f, 6}));
    EXPECT_EQ(v.status, results::Status::failed);
    EXPECT_EQ(v.categories, (comparison::CategoryCounts{{comparison::Category::signed_zero, 1}}));
    ASSERT_EQ(v.mismatches.size(), 1u);
    EXPECT_EQ(v.mismatches[0].index, 0);
}

TEST(CaseJudge, ProfileValueEntryExplainsTheElementsItsModelGives) {
    const profiles::Profile profile = profiles::parse_profile(
        "[[declare]]\nname = \"zero-sign\"\nfinding = \"f.md\"\n"
        "behaviours = [\"negative_zero_results_lost\"]\nops = [\"onnx.Mul-*\"]\n",
        "p.toml");
    const platform::Platform host;
    std::set<std::string> exercised;
    const judging::JudgeSettings settings{{}, &profile, &host, &exercised};
    const core::CaseRecord c = f32_case("onnx.Mul-14", {-1, 2}, {0, 3});
    const results::Verdict v = judge(c, ok({0.0f, 6}), settings);
    EXPECT_EQ(v.status, results::Status::deviates_as_declared);
    EXPECT_EQ(v.declared, (std::map<std::string, std::int64_t>{{"zero-sign", 1}}));
    EXPECT_EQ(exercised, std::set<std::string>{"zero-sign"});
    // The model does not explain another value.
    EXPECT_EQ(judge(c, ok({0.0f, 7}), settings).status, results::Status::failed);
}

TEST(CaseJudge, RejectionForAnotherReasonThanTheInputsInvalidityFails) {
    core::CaseRecord c = f32_case("onnx.Mul-14", {1, 2}, {3, 4});
    c.b = core::make_tensor<core::ElementType::f32>({3}, std::vector<float>{1, 2, 3});
    c.valid = false;  // (2) and (3) do not broadcast: a shape error
    backends::Result rejected;
    rejected.outcome = backends::Outcome::rejected;
    rejected.reason = "shape";
    EXPECT_EQ(judge(c, rejected).status, results::Status::passed);
    rejected.reason = "type";
    const results::Verdict v = judge(c, rejected);
    EXPECT_EQ(v.status, results::Status::failed);
    EXPECT_EQ(v.categories,
              (comparison::CategoryCounts{{comparison::Category::rejection_reason, 1}}));
    EXPECT_EQ(judge(c, ok({4, 8, 12})).status, results::Status::accepted_invalid);
}

TEST(CaseJudge, StatusEntryDeclaresTheStatusItNames) {
    const profiles::Profile profile = profiles::parse_profile(
        "[[declare]]\nname = \"crash\"\nfinding = \"f.md\"\nstatus = \"CRASHED\"\n"
        "ops = [\"onnx.Div-*\"]\n",
        "p.toml");
    const platform::Platform host;
    const judging::JudgeSettings settings{{}, &profile, &host, nullptr};
    const core::CaseRecord c = f32_case("onnx.Div-14", {1}, {2});
    backends::Result crashed;
    crashed.outcome = backends::Outcome::crashed;
    EXPECT_EQ(judge(c, crashed, settings).status, results::Status::deviates_as_declared);
    crashed.outcome = backends::Outcome::hung;
    EXPECT_EQ(judge(c, crashed, settings).status, results::Status::hung);
    // A wrong value is no crash.
    EXPECT_EQ(judge(c, ok({0.25f}), settings).status, results::Status::failed);
}

// Issue 44: at seed 5, openvino's pdpd crash entry (when int32_min_by_minus_one) was reported
// stale by a case whose shape the library refused first, as another entry declares: the
// prediction was never tested there. An undeclared outcome still tests it.
TEST(CaseJudge, PredictionPreemptedByAnotherDeclaredStatusIsNotStale) {
    const profiles::Profile profile = profiles::parse_profile(
        "[[declare]]\nname = \"trap\"\nfinding = \"f.md\"\nstatus = \"CRASHED\"\n"
        "when = \"int_min_by_minus_one\"\nops = [\"onnx.Div-*\"]\n\n"
        "[[declare]]\nname = \"refused\"\nfinding = \"f.md\"\nstatus = \"REJECTED_VALID\"\n"
        "ops = [\"onnx.Div-*\"]\n",
        "p.toml");
    const platform::Platform host;
    std::set<std::string> exercised;
    const judging::JudgeSettings settings{{}, &profile, &host, &exercised};
    core::CaseRecord c;
    c.op = core::find_op_version("onnx.Div-14");
    c.a = core::make_tensor<core::ElementType::i32>({2}, std::vector<std::int32_t>{INT32_MIN, 7});
    c.b = core::make_tensor<core::ElementType::i32>({2}, std::vector<std::int32_t>{-1, 2});
    backends::Result refused;
    refused.outcome = backends::Outcome::rejected;
    refused.reason = "shape";
    EXPECT_EQ(judge(c, refused, settings).status, results::Status::deviates_as_declared);
    EXPECT_TRUE(exercised.empty());
    backends::Result failed;
    failed.outcome = backends::Outcome::error;
    failed.message = "some other failure";
    EXPECT_EQ(judge(c, failed, settings).status, results::Status::error);
    EXPECT_EQ(exercised, std::set<std::string>{"trap"});
}

// Issue 44: an output file too large to read, whose header agrees with its size, names a shape:
// that alone is a wrong shape (FAILED, shape), and a shape_only status entry may declare it.
TEST(CaseJudge, UnreadOutputIsJudgedByItsHeadersShape) {
    const core::CaseRecord c = f32_case("onnx.Mul-14", {1, 2}, {3, 4});  // expected (2,)
    backends::Result unread;
    unread.outcome = backends::Outcome::ok;
    unread.unread_output = backends::UnreadOutput{core::ElementType::f32, {4095, 2}, 32888};
    const results::Verdict v = judge(c, unread);
    EXPECT_EQ(v.status, results::Status::failed);
    EXPECT_EQ(v.categories, (comparison::CategoryCounts{{comparison::Category::shape, 1}}));
    EXPECT_NE(v.message.find("32888-byte output file"), std::string::npos) << v.message;
    const profiles::Profile profile = profiles::parse_profile(
        "[[declare]]\nname = \"wide\"\nfinding = \"f.md\"\nstatus = \"FAILED\"\n"
        "when = \"shape_only\"\nops = [\"onnx.Mul-*\"]\n",
        "p.toml");
    const platform::Platform host;
    const judging::JudgeSettings settings{{}, &profile, &host, nullptr};
    const results::Verdict declared = judge(c, unread, settings);
    EXPECT_EQ(declared.status, results::Status::deviates_as_declared);
    EXPECT_EQ(declared.declared, (std::map<std::string, std::int64_t>{{"wide", 1}}));
}

}  // namespace
