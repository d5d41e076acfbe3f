// The model search on hand-made calls: the answers are what a library with the behaviour gives,
// worked out by hand from IEEE 754 (not by the models under test).
#include "triage/model_search.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using core::ElementType;
using triage::Behaviours;

template <ElementType T>
triage::SavedCall saved(const char* op, std::vector<core::Storage<T>> a,
                        std::vector<core::Storage<T>> b, std::vector<core::Storage<T>> actual) {
    const core::Shape shape{static_cast<std::int64_t>(a.size())};
    triage::SavedCall c;
    c.id = "hand-made";
    c.data.op = core::find_op_version(op);
    c.data.a = core::make_tensor<T>(shape, a);
    c.data.b = core::make_tensor<T>(shape, b);
    c.actual = core::make_tensor<T>(shape, actual);
    return c;
}

std::vector<Behaviours> fewest(const triage::SavedCall& c) {
    const triage::CallJudge judge(c, {});
    return triage::fewest_explanations(judge).fewest;
}

TEST(ModelSearch, AProductFlushedAfterRoundingIsExplainedByEachModelGivingZero) {
    // 2^-120 * 2^-10 = 2^-130, an f32 subnormal: a flushing library gives +0. The inputs are
    // normal, so reading subnormal inputs as zero explains nothing; both flushes of results do,
    // and so does computing in f16, where 2^-120 (below f16's 2^-24) is already 0. Only wrong
    // elements need explaining: element 1, right, rules nothing out.
    const auto c =
        saved<ElementType::f32>("onnx.Mul-14", {0x1p-120f, 3.0f}, {0x1p-10f, 2.0f}, {0.0f, 6.0f});
    EXPECT_EQ(fewest(c), (std::vector<Behaviours>{{"computed_in_f16"},
                                                  {"subnormal_results_flushed"},
                                                  {"subnormal_results_flushed_before_rounding"}}));
}

TEST(ModelSearch, DazAndFtzTogetherNeedThePair) {
    // [0]: normal inputs, subnormal product 2^-130 flushed (FTZ); [1]: the subnormal input
    // 2^-130 read as 0 (DAZ) where the product 2^-100 is normal. No single model gives both
    // zeros: in f16, 2^-130 is 0 but 2^30 overflows to inf, and 0 * inf is NaN; with infinities
    // clamped to f16's largest finite value it is 0 again: that pair explains both too.
    const auto c = saved<ElementType::f32>("onnx.Mul-14", {0x1p-120f, 0x1p-130f},
                                           {0x1p-10f, 0x1p30f}, {0.0f, 0.0f});
    EXPECT_EQ(fewest(c), (std::vector<Behaviours>{
                             {"subnormal_inputs_zero", "subnormal_results_flushed"},
                             {"subnormal_inputs_zero", "subnormal_results_flushed_before_rounding"},
                             {"computed_in_f16", "infinities_clamped"}}));
}

TEST(ModelSearch, Bf16ResultsTruncated) {
    // 1.5 * (1 + 2^-7) = 1.51171875 = 193.5 units of 2^-7: to nearest even 194 (0x3fc2),
    // truncated 193 (0x3fc1).
    const auto c = saved<ElementType::bf16>("onnx.Mul-14", {core::BFloat16{0x3fc0}},
                                            {core::BFloat16{0x3f81}}, {core::BFloat16{0x3fc1}});
    EXPECT_EQ(fewest(c), (std::vector<Behaviours>{{"results_rounded_toward_zero"}}));
}

TEST(ModelSearch, AWrongElementNoModelGivesIsUnexplained) {
    // 2 * 3 answered 7: no behaviour of the list gives it.
    const auto c = saved<ElementType::f32>("onnx.Mul-14", {2.0f}, {3.0f}, {7.0f});
    EXPECT_TRUE(fewest(c).empty());
}

TEST(ModelSearch, ExplainsIsTheJudgesExactness) {
    // One ulp off an explained element is not explained: 2^-130 flushed to the smallest
    // subnormal instead of 0.
    const auto c = saved<ElementType::f32>("onnx.Mul-14", {0x1p-120f}, {0x1p-10f},
                                           {std::numeric_limits<float>::denorm_min()});
    const triage::CallJudge judge(c, {});
    EXPECT_FALSE(judge.explains({"subnormal_results_flushed"}));
}

TEST(StatusPredicates, MostSpecificFirst) {
    using W = profiles::InputsWhen;
    const auto int_min = saved<ElementType::i32>(
        "onnx.Div-14", {std::numeric_limits<std::int32_t>::min(), 7}, {-1, 0}, {0, 0});
    EXPECT_EQ(triage::holding_predicates(int_min),
              (std::vector<W>{W::int_min_by_minus_one, W::int32_min_by_minus_one, W::traps_in_i32,
                              W::zero_divisor, W::any}));
    const auto zero = saved<ElementType::i8>("onnx.Div-14", {5, 7}, {1, 0}, {5, 0});
    EXPECT_EQ(triage::holding_predicates(zero), (std::vector<W>{W::zero_divisor, W::any}));
    const auto plain = saved<ElementType::u8>("onnx.Mul-14", {5}, {7}, {35});
    EXPECT_EQ(triage::holding_predicates(plain), (std::vector<W>{W::any}));
}

}  // namespace
