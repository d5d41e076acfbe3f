// A case judged in one call, through a scripted backend: the re-run of a call refused for its
// undefined elements, the profile's status entries and the baseline outcome. Expected values
// are computed by hand (integer division: docs/SEMANTICS.md 2.3).
#include "judging/case_evaluation.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "core/op_table.hpp"

namespace {

// Answers each call with `answer`, and keeps what it was sent.
struct ScriptedBackend : backends::Backend {
    std::function<backends::Result(const backends::Call&)> answer;
    std::vector<std::int64_t> ids;
    std::vector<core::Tensor> bs;
    backends::Hello none;
    const backends::Hello& hello() const override { return none; }
    backends::Result run(const backends::Call& call) override {
        ids.push_back(call.id);
        bs.push_back(*call.b);
        return answer(call);
    }
};

core::CaseRecord i32_div(std::vector<std::int32_t> a, std::vector<std::int32_t> b) {
    core::CaseRecord c;
    c.id = "case-1";
    c.op = core::find_op_version("onnx.Div-14");
    const core::Shape shape{static_cast<std::int64_t>(a.size())};
    c.a = core::make_tensor<core::ElementType::i32>(shape, a);
    c.b = core::make_tensor<core::ElementType::i32>(shape, b);
    return c;
}

backends::Result ok_i32(std::vector<std::int32_t> values) {
    backends::Result r;
    r.outcome = backends::Outcome::ok;
    r.output = core::make_tensor<core::ElementType::i32>({static_cast<std::int64_t>(values.size())},
                                                         values);
    return r;
}

// Refuses a call with a zero divisor; else answers `values`.
ScriptedBackend refusing_zeros(std::vector<std::int32_t> values) {
    ScriptedBackend backend;
    backend.answer = [values](const backends::Call& call) {
        for (std::int32_t x : call.b->values<std::int32_t>())
            if (x == 0) {
                backends::Result r;
                r.outcome = backends::Outcome::rejected;
                r.message = "division by zero";
                return r;
            }
        return ok_i32(values);
    };
    return backend;
}

judging::CaseResult evaluate(ScriptedBackend& backend, const core::CaseRecord& c,
                             const judging::EvaluationSettings& settings = {}) {
    std::int64_t next_call_id = 7;
    return judging::evaluate_case({backend, next_call_id, 10}, *c.op, c, settings);
}

TEST(CaseEvaluation, CallRefusedForItsUndefinedElementsIsReRunWithDivisorOne) {
    const core::CaseRecord c = i32_div({6, 7}, {3, 0});  // 6 / 3 = 2; 7 / 0 undefined
    ScriptedBackend backend = refusing_zeros({2, 7});    // 7 / 1 = 7
    const judging::CaseResult r = evaluate(backend, c);
    EXPECT_EQ(r.verdict.status, results::Status::refused_undefined) << r.verdict.message;
    EXPECT_EQ(r.undefined_refused, 1);
    EXPECT_EQ(backend.ids, (std::vector<std::int64_t>{7, 8}));
    ASSERT_EQ(backend.bs.size(), 2u);
    EXPECT_EQ(backend.bs[1].values<std::int32_t>()[1], 1);
    ASSERT_TRUE(r.defined_b);
    EXPECT_EQ(r.defined_b->values<std::int32_t>()[1], 1);
}

TEST(CaseEvaluation, ReRunThatFailsIsTheCasesFailure) {
    const core::CaseRecord c = i32_div({6, 7}, {3, 0});
    ScriptedBackend backend = refusing_zeros({2, 8});  // 7 / 1 is 7, not 8
    const judging::CaseResult r = evaluate(backend, c);
    EXPECT_EQ(r.verdict.status, results::Status::failed);
    EXPECT_EQ(r.verdict.message.rfind("re-run with divisor 1 where the backend rejected", 0), 0u)
        << r.verdict.message;
}

TEST(CaseEvaluation, UndefinedRefusalAsDeviationIsNotReRun) {
    const core::CaseRecord c = i32_div({6, 7}, {3, 0});
    ScriptedBackend backend = refusing_zeros({2, 7});
    const judging::CaseResult r =
        evaluate(backend, c, {.judge = {}, .undefined_refusal_is_deviation = true});
    EXPECT_EQ(r.verdict.status, results::Status::rejected_valid);
    EXPECT_EQ(backend.ids.size(), 1u);
    EXPECT_NE(r.verdict.message.find("counted as a deviation"), std::string::npos);
}

TEST(CaseEvaluation, StatusEntryOfTheProfileDeclaresTheOutcome) {
    const profiles::Profile profile = profiles::parse_profile(
        "[[declare]]\nname = \"crash\"\nfinding = \"f.md\"\nstatus = \"CRASHED\"\n"
        "ops = [\"onnx.Div-*\"]\n",
        "p.toml");
    const platform::Platform host;
    const judging::EvaluationSettings settings{.judge = {{}, &profile, &host, nullptr}};
    const core::CaseRecord c = i32_div({6}, {3});
    ScriptedBackend backend;
    backend.answer = [](const backends::Call&) {
        backends::Result r;
        r.outcome = backends::Outcome::crashed;
        return r;
    };
    const judging::CaseResult r = evaluate(backend, c, settings);
    EXPECT_EQ(r.verdict.status, results::Status::deviates_as_declared);
    EXPECT_EQ(r.verdict.declared, (std::map<std::string, std::int64_t>{{"crash", 1}}));
}

TEST(CaseEvaluation, BaselineOutcomeIsTheCasesUnderItsId) {
    const std::vector<results::Expectation> baseline{{"case-1", results::Status::failed, 1}};
    const judging::EvaluationSettings settings{.judge = {}, .expectations = &baseline};
    ScriptedBackend wrong;
    wrong.answer = [](const backends::Call&) { return ok_i32({3}); };  // 6 / 3 is 2
    ScriptedBackend right;
    right.answer = [](const backends::Call&) { return ok_i32({2}); };
    core::CaseRecord c = i32_div({6}, {3});
    EXPECT_EQ(evaluate(wrong, c, settings).baseline, results::Baseline::accepted);
    EXPECT_EQ(evaluate(right, c, settings).baseline, results::Baseline::now_passes);
    EXPECT_EQ(evaluate(wrong, c).baseline, results::Baseline::none);  // no --expected
    c.id = "case-2";
    EXPECT_EQ(evaluate(wrong, c, settings).baseline, results::Baseline::new_);
    EXPECT_EQ(evaluate(right, c, settings).baseline, results::Baseline::none);
}

}  // namespace
