// Grouping into entries: scopes never wider than the keys seen, greedy set cover.
#include "triage/draft_entries.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using core::BroadcastRule;
using core::ElementType;
using triage::CallKey;

CallKey key(const char* op, ElementType t, BroadcastRule r = BroadcastRule::numpy,
            const char* form = "runtime") {
    return {op, t, r, form};
}

template <class T>
std::set<T> set_of(const std::vector<T>& v) {
    return {v.begin(), v.end()};
}

TEST(ScopeBoxes, NoCombinationThatWasNotSeen) {
    // Mul-14 on f32 and bf16, Div-14 on f32 only: one box of both ops × both types would add
    // Div-14 bf16, which Div-14 has and no case showed.
    const auto boxes = triage::scope_boxes({key("onnx.Mul-14", ElementType::f32),
                                            key("onnx.Div-14", ElementType::f32),
                                            key("onnx.Mul-14", ElementType::bf16)});
    ASSERT_EQ(boxes.size(), 2u);
    for (const triage::ScopeBox& b : boxes) {
        if (b.dtypes == std::vector{ElementType::f32}) {
            EXPECT_EQ(set_of(b.ops), (std::set<std::string>{"onnx.Mul-14", "onnx.Div-14"}));
        } else {
            EXPECT_EQ(b.dtypes, std::vector{ElementType::bf16});
            EXPECT_EQ(b.ops, std::vector<std::string>{"onnx.Mul-14"});
        }
    }
}

TEST(ScopeBoxes, ImpossibleCombinationsNeedNoEvidence) {
    // Mul-7 broadcasts by numpy's rule only; Divide-1 by none, numpy and pdpd: every call these
    // keys' product can have was seen, so one box holds them.
    const auto boxes = triage::scope_boxes(
        {key("onnx.Mul-7", ElementType::f32), key("openvino.Divide-1", ElementType::f32),
         key("openvino.Divide-1", ElementType::f32, BroadcastRule::pdpd),
         key("openvino.Divide-1", ElementType::f32, BroadcastRule::none)});
    ASSERT_EQ(boxes.size(), 1u);
    EXPECT_EQ(set_of(boxes[0].rules),
              (std::set{BroadcastRule::none, BroadcastRule::numpy, BroadcastRule::pdpd}));
    // A form not seen is not added.
    EXPECT_EQ(boxes[0].forms, std::vector<std::string>{"runtime"});
}

TEST(ValueEntries, OneModelExplainingEveryCaseIsOneEntry) {
    // Cases 0 and 1 are explained by X alone, case 2 by Y alone at its fewest; X explains case
    // 2 too (the judge says so when asked): one entry, X, covers all three.
    const triage::Behaviours x{"subnormal_results_flushed"},
        y{"subnormal_results_flushed_before_rounding"};
    const std::vector<triage::ExplainedCase> cases{
        {"c0", key("onnx.Mul-14", ElementType::f32), {x}},
        {"c1", key("onnx.Div-14", ElementType::f32), {x}},
        {"c2", key("onnx.Mul-14", ElementType::f32), {y}},
    };
    const auto entries = triage::value_entries(
        cases, [&](std::size_t i, const auto& b) { return b == x || (i == 2 && b == y); });
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].behaviours, x);
    EXPECT_EQ(entries[0].cases, (std::vector<std::string>{"c0", "c1", "c2"}));
}

TEST(ValueEntries, EachModelScopedToItsOwnCases) {
    const triage::Behaviours ftz{"subnormal_results_flushed"}, rtz{"results_rounded_toward_zero"};
    const std::vector<triage::ExplainedCase> cases{
        {"f", key("onnx.Mul-14", ElementType::f32), {ftz}},
        {"b", key("onnx.Div-14", ElementType::bf16), {rtz}},
    };
    const auto entries =
        triage::value_entries(cases, [](std::size_t, const auto&) { return false; });
    ASSERT_EQ(entries.size(), 2u);
    for (const triage::DraftEntry& e : entries) {
        const bool f32 = e.behaviours == ftz;
        EXPECT_EQ(e.scope.dtypes, std::vector{f32 ? ElementType::f32 : ElementType::bf16});
        EXPECT_EQ(e.scope.ops, std::vector<std::string>{f32 ? "onnx.Mul-14" : "onnx.Div-14"});
        EXPECT_EQ(e.cases, std::vector<std::string>{f32 ? "f" : "b"});
    }
}

TEST(StatusEntries, GroupedByTheMostSpecificPredicate) {
    using W = profiles::InputsWhen;
    const std::vector<triage::StatusCase> cases{
        {"a",
         key("onnx.Div-14", ElementType::i32),
         results::Status::crashed,
         {W::int_min_by_minus_one, W::traps_in_i32, W::any}},
        {"b",
         key("onnx.Div-14", ElementType::i64),
         results::Status::crashed,
         {W::int_min_by_minus_one, W::any}},
        {"c",
         key("onnx.Div-14", ElementType::i8),
         results::Status::rejected_valid,
         {W::zero_divisor, W::any}},
    };
    const auto entries = triage::status_entries(cases);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].status, results::Status::rejected_valid);
    EXPECT_EQ(entries[0].when, W::zero_divisor);
    EXPECT_EQ(entries[1].status, results::Status::crashed);
    EXPECT_EQ(entries[1].when, W::int_min_by_minus_one);
    EXPECT_EQ(set_of(entries[1].scope.dtypes), (std::set{ElementType::i32, ElementType::i64}));
    EXPECT_EQ(entries[1].cases, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
