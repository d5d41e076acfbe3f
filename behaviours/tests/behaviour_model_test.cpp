// Each behaviour against hand-computed values (the findings' minimal cases among them), so that a
// model that drifts from what the hardware or library does fails here, not in a profile.
#include "behaviours/behaviour_model.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/half_float.hpp"
#include "core/op_table.hpp"

namespace {

using core::ElementType;

behaviours::Model model(std::initializer_list<const char*> names) {
    behaviours::Model m;
    for (const char* n : names)
        behaviours::add_behaviour(m, n);
    return m;
}

template <ElementType T>
core::Tensor run(const behaviours::Model& m, const char* op, std::vector<core::Storage<T>> a,
                 std::vector<core::Storage<T>> b, core::AttributeMap attributes = {}) {
    const core::Shape shape{static_cast<std::int64_t>(a.size())};
    const core::Tensor ta = core::make_tensor<T>(shape, a), tb = core::make_tensor<T>(shape, b);
    const core::PreparedCall call =
        core::prepare_call(*core::find_op_version(op), attributes, ta, tb);
    return behaviours::model_output(m, call, ta, tb);
}

std::vector<std::uint32_t> f32_bits(const core::Tensor& t) {
    std::vector<std::uint32_t> out;
    for (float v : t.values<float>())
        out.push_back(std::bit_cast<std::uint32_t>(v));
    return out;
}

std::vector<std::uint16_t> bits16(const core::Tensor& t) {
    std::vector<std::uint16_t> out;
    for (core::BFloat16 v : t.values<core::BFloat16>())
        out.push_back(v.bits);
    return out;
}

float f32(std::uint32_t bits) {
    return std::bit_cast<float>(bits);
}

TEST(Behaviours, X86FlushToZeroFlushesAResultRoundedUpToTheSmallestNormal) {
    // min_normal * (1 - 2^-24): IEEE rounds it up to min_normal (0x00800000); x86 FTZ detects
    // tininess after rounding with an unbounded exponent, where it stays below: +-0.
    const auto m = model({"subnormal_results_flushed"});
    const float below_one = f32(0x3f7fffff), min_normal = f32(0x00800000);
    const auto out = f32_bits(run<ElementType::f32>(
        m, "onnx.Mul-14", {min_normal, -min_normal, min_normal, f32(0x00000001), f32(0x00800001)},
        {below_one, below_one, 1.0f, 1.0f, 1.0f}));
    EXPECT_EQ(out, (std::vector<std::uint32_t>{0x00000000, 0x80000000, 0x00800000, 0x00000000,
                                               0x00800001}));
    const behaviours::Model none;
    EXPECT_EQ(f32_bits(run<ElementType::f32>(none, "onnx.Mul-14", {min_normal}, {below_one}))[0],
              0x00800000u);
}

TEST(Behaviours, OverflowBeforeRoundingGivesInfinityForWhatRoundsToMax) {
    // f16 1.0166015625 (0x3c11) * 64448 (0x7bde) = 65518.25: below 65520, halfway to the next
    // binade, so rounding to nearest gives 65504 (0x7bff); above 65504 before rounding: inf.
    // 65504 * 1 is not above it; the negative product gives -inf.
    using H = core::Half;
    const auto over = model({"overflow_before_rounding"});
    const std::vector<H> a{H{0x3c11}, H{0x7bff}, H{0xbc11}}, b{H{0x7bde}, H{0x3c00}, H{0x7bde}};
    EXPECT_EQ(bits16(run<ElementType::f16>(over, "onnx.Mul-14", a, b)),
              (std::vector<std::uint16_t>{0x7c00, 0x7bff, 0xfc00}));
    const behaviours::Model none;
    EXPECT_EQ(bits16(run<ElementType::f16>(none, "onnx.Mul-14", a, b)),
              (std::vector<std::uint16_t>{0x7bff, 0x7bff, 0xfbff}));
    // f32 results are rounded by the operation itself: the model leaves them alone.
    EXPECT_FALSE(behaviours::affects(over, ElementType::f32, true));
}

TEST(Behaviours, FlushBeforeRoundingAlsoFlushesWhatRoundsToMinNormal) {
    // f32 2^-126 * (1 - 2^-24) is below 2^-126 before rounding: flushed, though it rounds to
    // 2^-126; (2^-126 + 2^-149) * (1 - 2^-24) is above 2^-126: kept. bf16 2^-126 * (1 - 2^-8)
    // = 2^-126 - 2^-134, a tie that rounds to 2^-126 (0x0080): flushed.
    const auto before = model({"subnormal_results_flushed_before_rounding"});
    const float below_one = f32(0x3f7fffff);
    EXPECT_EQ(
        f32_bits(run<ElementType::f32>(before, "onnx.Mul-14", {f32(0x00800000), f32(0x00800001)},
                                       {below_one, below_one})),
        (std::vector<std::uint32_t>{0x00000000, 0x00800000}));
    using B = core::BFloat16;
    EXPECT_EQ(bits16(run<ElementType::bf16>(before, "onnx.Mul-14", {B{0x0080}, B{0x0001}},
                                            {B{0x3f7f}, B{0x3f80}})),
              (std::vector<std::uint16_t>{0x0000, 0x0000}));
    // 2^-126 * 1.5 / 1.5 is exactly min_normal: not tiny.
    EXPECT_EQ(bits16(run<ElementType::bf16>(before, "onnx.Div-14", {B{0x00c0}}, {B{0x3fc0}})),
              (std::vector<std::uint16_t>{0x0080}));
}

TEST(Behaviours, X86FlushToZeroInDivision) {
    const auto m = model({"subnormal_results_flushed"});
    const float min_normal = f32(0x00800000);
    // min_normal / (1 + 2^-23) = min_normal * (1 - 2^-23 + ...): below min_normal, rounds up to
    // it only with a bounded exponent; huge / huge near min_normal takes the other scaling.
    // 2 / (2^127 (1 + 2^-23)) likewise, with a dividend above 1 (B is scaled down instead).
    const auto out =
        f32_bits(run<ElementType::f32>(m, "onnx.Div-14", {min_normal, 2 * min_normal, 2.0f},
                                       {f32(0x3f800001), 2.0f, f32(0x7f000001)}));
    EXPECT_EQ(out[0], 0x00000000u);
    EXPECT_EQ(out[1], 0x00800000u);  // exactly min_normal: not tiny
    EXPECT_EQ(out[2], 0x00000000u);
}

TEST(Behaviours, SubnormalInputsReadAsZero) {
    const auto m = model({"subnormal_inputs_zero"});
    const auto out = f32_bits(run<ElementType::f32>(m, "onnx.Mul-14", {f32(0x80000001), 2.0f},
                                                    {0x1p100f, f32(0x00000001)}));
    EXPECT_EQ(out, (std::vector<std::uint32_t>{0x80000000, 0x00000000}));
}

TEST(Behaviours, Bf16RoundedTowardZeroAsOnAvx2) {
    // The values of the AVX2 OpenVINO runs: 1 / 0.99609375 = 1.0039..., nearest 1.0078125
    // (0x3f81), toward zero 1 (0x3f80); 1.0078125 * 1.5078125 = 1.5196..., 1.515625 (0x3fc2)
    // where nearest gives 1.5234375 (0x3fc3); 1 / 3: 0.33203125 (0x3eaa), not 0.33398438.
    const auto m = model({"results_rounded_toward_zero"});
    using B = core::BFloat16;
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Div-14", {B{0x3f80}, B{0x3f80}},
                                            {B{0x3f7f}, B{0x4040}})),
              (std::vector<std::uint16_t>{0x3f80, 0x3eaa}));
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Mul-14", {B{0x3f81}}, {B{0x3fc1}})),
              (std::vector<std::uint16_t>{0x3fc2}));
    const behaviours::Model none;
    EXPECT_EQ(bits16(run<ElementType::bf16>(none, "onnx.Mul-14", {B{0x3f81}}, {B{0x3fc1}})),
              (std::vector<std::uint16_t>{0x3fc3}));
    // A finite f32 result beyond bf16's largest value: nearest gives inf, toward zero the
    // largest finite (0x7f7e * 1.0078125); the evidence's division 3.3762391e38 / 0.99609375
    // gives 3.3762391e38 (0x7f7e) where nearest gives 3.3895314e38 (0x7f7f). An f32 result
    // that is already inf stays inf.
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Mul-14", {B{0x7f7e}, B{0x7f7f}},
                                            {B{0x3f81}, B{0x4000}})),
              (std::vector<std::uint16_t>{0x7f7f, 0x7f80}));
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Div-14", {B{0x7f7e}}, {B{0x3f7f}})),
              (std::vector<std::uint16_t>{0x7f7e}));
}

TEST(Behaviours, Bf16ResultsRoundedTiesAwayAsNcnnStoresThem) {
    // ncnn-2: 3 * 87 = 261 lies halfway between 260 (0x4382, even) and 262 (0x4383): ties away
    // gives 262, and -262 for -3 * 87; 3 * 85 = 255 is exact (0x437f) and stays.
    const auto m = model({"results_rounded_ties_away"});
    using B = core::BFloat16;
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Mul-14", {B{0x4040}, B{0xc040}, B{0x4040}},
                                            {B{0x42ae}, B{0x42ae}, B{0x42aa}})),
              (std::vector<std::uint16_t>{0x4383, 0xc383, 0x437f}));
    const behaviours::Model none;
    EXPECT_EQ(bits16(run<ElementType::bf16>(none, "onnx.Mul-14", {B{0x4040}}, {B{0x42ae}})),
              (std::vector<std::uint16_t>{0x4382}));
    // Off a tie it is nearest: 1.0078125 * 1.5078125 = 1.5196 -> 1.5234375 (0x3fc3). Half a unit
    // above bf16's largest value (0x7f7f * 1.00390625 = max + unit/2) overflows to inf; less stays.
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Mul-14", {B{0x3f81}, B{0x7f7f}, B{0x7f7f}},
                                            {B{0x3fc1}, B{0x3f80}, B{0x3f81}})),
              (std::vector<std::uint16_t>{0x3fc3, 0x7f7f, 0x7f80}));
    EXPECT_FALSE(behaviours::affects(m, ElementType::f32, true));
    EXPECT_TRUE(behaviours::affects(m, ElementType::f16, false));
}

TEST(Behaviours, IntegerMultiplicationThroughF32AsMnnOnX86) {
    // mnn-3: 16777217 * 1 rounds to 16777216 in f32; 3 * 1431655766 = 4294967298 is outside
    // i32: the integer indefinite -2147483648 (wrapping would give 2); -3 * 5 = -15 stays.
    const auto m = model({"integer_multiplication_via_f32"});
    const auto v = run<ElementType::i32>(m, "onnx.Mul-14", {16777217, 3, -3}, {1, 1431655766, 5});
    const auto values = v.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(values.begin(), values.end()),
              (std::vector<std::int32_t>{16777216, -2147483647 - 1, -15}));
    EXPECT_FALSE(behaviours::affects(m, ElementType::i32, false));  // division is untouched
}

TEST(Behaviours, DivisionByReciprocal) {
    // openvino-5's minimal cases: 3 / 1.0000001 gives 0x403ffffe (exact 0x403fffff); 0 / -1e-45
    // gives 0 * -inf = NaN.
    const auto m = model({"division_by_reciprocal"});
    const auto out = f32_bits(
        run<ElementType::f32>(m, "onnx.Div-14", {3.0f, 0.0f}, {f32(0x3f800001), f32(0x80000001)}));
    EXPECT_EQ(out[0], 0x403ffffeu);
    EXPECT_TRUE(std::isnan(f32(out[1])));
}

TEST(Behaviours, TiesAwayOfAResultFarBelowTheSmallestSubnormal) {
    // 2^-70 * 2^-70 = 2^-140 in f32: below bf16's smallest subnormal 2^-133, so the result
    // truncates to +0 and lies far below the midpoint: +0. (Truncating to 0 once took ilogb(0) - 7:
    // UB.)
    const auto m = model({"results_rounded_ties_away"});
    using B = core::BFloat16;
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Mul-14", {B{0x1c80}}, {B{0x1c80}})),
              (std::vector<std::uint16_t>{0x0000}));
}

TEST(Behaviours, ReciprocalOnlyForAOneElementDivisor) {
    // executorch-4: 0.06302505 / -2.9253897e-37 is -2.1544156e35 (0xfa25f85b) exactly rounded;
    // times the f32 reciprocal -3.418348e36 (0xfc249664) it is -2.1544154e35 (0xfa25f85a). With
    // B of one element the modifier keeps the reciprocal; with B of two it divides exactly.
    const auto m = model({"division_by_reciprocal", "reciprocal_only_for_one_element_divisor"});
    const core::OpVersion& div = *core::find_op_version("onnx.Div-14");
    const float x = 0.06302505f, y = -2.9253897e-37f;
    const auto output = [&](std::vector<float> b) {
        const core::Tensor ta = core::make_tensor<ElementType::f32>({2}, {x, x}),
                           tb = core::make_tensor<ElementType::f32>(
                               {static_cast<std::int64_t>(b.size())}, b);
        return f32_bits(behaviours::model_output(m, core::prepare_call(div, {}, ta, tb), ta, tb));
    };
    EXPECT_EQ(output({y}), (std::vector<std::uint32_t>{0xfa25f85au, 0xfa25f85au}));
    EXPECT_EQ(output({y, y}), (std::vector<std::uint32_t>{0xfa25f85bu, 0xfa25f85bu}));
}

TEST(Behaviours, Bf16ReciprocalFoldedTowardZero) {
    // openvino-18's const-b cases: 1/24.25 = 0.041237... is 0x3d28 toward zero (nearest 0x3d29);
    // 1.841682e13 (0x5586) times it is 0x5330 to nearest, where the exact quotient is 0x5331.
    const auto m = model({"division_by_reciprocal", "reciprocal_rounded_toward_zero"});
    using B = core::BFloat16;
    EXPECT_EQ(bits16(run<ElementType::bf16>(m, "onnx.Div-14", {B{0x5586}, B{0x3ec6}, B{0xd136}},
                                            {B{0x41c2}, B{0x40c2}, B{0xc154}})),
              (std::vector<std::uint16_t>{0x5330, 0x3d82, 0x4f5b}));
    EXPECT_EQ(bits16(run<ElementType::bf16>(model({"division_by_reciprocal"}), "onnx.Div-14",
                                            {B{0x5586}}, {B{0x41c2}})),
              (std::vector<std::uint16_t>{0x5331}));
}

TEST(Behaviours, F64ComputedInF32WithInfinitiesClamped) {
    // openvino-4: inf * 2 gives FLT_MAX; inf * 0 gives 0; 1/3 gets f32's rounding.
    const auto m = model({"computed_in_f32", "infinities_clamped"});
    const core::Tensor t = run<ElementType::f64>(m, "openvino.Multiply-1",
                                                 {INFINITY, INFINITY, 1.0 / 3}, {2.0, 0.0, 1.0});
    const auto v = t.values<double>();
    EXPECT_EQ(v[0], 3.4028234663852886e+38);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(v[1]), 0u);
    EXPECT_EQ(v[2], static_cast<double>(1.0f / 3));
}

TEST(Behaviours, F32ComputedInF16) {
    const auto m = model({"computed_in_f16"});
    const auto v = run<ElementType::f32>(m, "onnx.Div-14", {1.0f, 1e6f}, {3.0f, 1.0f});
    EXPECT_EQ(v.values<float>()[0], 0.333251953125f);  // f16 0x3555
    EXPECT_TRUE(std::isinf(v.values<float>()[1]));     // 1e6 is above f16's 65504
}

TEST(Behaviours, IntegersSaturated) {
    const auto m = model({"integer_results_saturated"});
    const auto mul = run<ElementType::i8>(m, "onnx.Mul-14", {100, -100, 3}, {2, 2, 3});
    EXPECT_EQ(std::vector<std::int8_t>(mul.values<std::int8_t>().begin(),
                                       mul.values<std::int8_t>().end()),
              (std::vector<std::int8_t>{127, -128, 9}));
    const auto div = run<ElementType::i8>(m, "onnx.Div-14", {-128}, {-1});
    EXPECT_EQ(div.values<std::int8_t>()[0], 127);
}

TEST(Behaviours, WideIntegersComputedInI32) {
    // openvino-3: (2^40 + 3) * 1 gives 3; u32 4294967295 / 1 is -1 / 1 in i32, widened back.
    const auto m = model({"computed_in_i32"});
    EXPECT_EQ(run<ElementType::i64>(m, "onnx.Mul-14", {(std::int64_t{1} << 40) + 3}, {1})
                  .values<std::int64_t>()[0],
              3);
    EXPECT_EQ(
        run<ElementType::u32>(m, "onnx.Div-14", {4294967295u}, {1u}).values<std::uint32_t>()[0],
        4294967295u);
    EXPECT_EQ(
        run<ElementType::u32>(m, "onnx.Div-14", {4294967294u}, {2u}).values<std::uint32_t>()[0],
        4294967295u);  // -2 / 2 = -1
}

TEST(Behaviours, IntegerDivisionThroughF32) {
    // openvino-10: 16777217 / 1 gives 16777216; 2147483647 / 1 rounds to 2^31, out of i32:
    // the integer indefinite -2147483648.
    const auto m = model({"integer_division_via_f32"});
    const auto v = run<ElementType::i32>(m, "onnx.Div-14", {16777217, 2147483647, -7}, {1, 1, 2});
    EXPECT_EQ(v.values<std::int32_t>()[0], 16777216);
    EXPECT_EQ(v.values<std::int32_t>()[1], -2147483647 - 1);
    EXPECT_EQ(v.values<std::int32_t>()[2], -3);
    const auto floor =
        run<ElementType::i32>(m, "openvino.Divide-1", {-7}, {2}, {{"m_pythondiv", "true"}});
    EXPECT_EQ(floor.values<std::int32_t>()[0], -4);
}

TEST(Behaviours, TruncatedQuotientThroughF64AsExecuTorchDoes) {
    // executorch-2's reproducer: INT64_MAX / 1 rounds to 2^63, outside i64: INT64_MIN;
    // INT64_MIN / -3 = 3074457345618258602 is 512 apart from its f64 neighbours, the nearest is
    // 3074457345618258432; (2^53 + 1) / 1 gives 2^53 (a tie, to even); -(2^62 + 1) / 2 =
    // -2^61 and 7 / -2 = -3 are exact in f64.
    const auto m = model({"truncated_quotient_through_f64"});
    constexpr std::int64_t max = 9223372036854775807, min = -max - 1, two53 = 9007199254740992;
    const auto v = run<ElementType::i64>(m, "onnx.Div-14", {max, min, two53 + 1, -(max / 2) - 2, 7},
                                         {1, -3, 1, 2, -2});
    const auto values = v.values<std::int64_t>();
    EXPECT_EQ(
        std::vector<std::int64_t>(values.begin(), values.end()),
        (std::vector<std::int64_t>{min, 3074457345618258432, two53, -2305843009213693952, -3}));
    // The floor mode is exact: -(2^62 + 1) / 2 floors to -2305843009213693953, not an f64.
    const auto floor = run<ElementType::i64>(m, "openvino.Divide-1", {-(max / 2) - 2}, {2},
                                             {{"m_pythondiv", "true"}});
    EXPECT_EQ(floor.values<std::int64_t>()[0], -2305843009213693953);
    EXPECT_TRUE(behaviours::affects(m, ElementType::i64, false));
    EXPECT_FALSE(behaviours::affects(m, ElementType::i32, false));
    EXPECT_FALSE(behaviours::affects(m, ElementType::i64, true));
}

TEST(Behaviours, IntegersComputedInF32AsOneDnnDoes) {
    // onednn-2: 7 / 2 = 4 (nearest even), -7 / 2 = -4; onednn-4: 2147483647 * 1 = 2147483520,
    // the largest f32 below 2^31; onednn-3: i8 100 * 2 = 127, -128 / -1 = 127.
    const auto m = model({"integers_computed_in_f32"});
    const auto q = run<ElementType::i32>(m, "onnx.Div-14", {7, -7, 5}, {2, 2, 2});
    EXPECT_EQ(q.values<std::int32_t>()[0], 4);
    EXPECT_EQ(q.values<std::int32_t>()[1], -4);
    EXPECT_EQ(q.values<std::int32_t>()[2], 2);
    EXPECT_EQ(run<ElementType::i32>(m, "onnx.Mul-14", {2147483647}, {1}).values<std::int32_t>()[0],
              2147483520);
    const auto i8 = run<ElementType::i8>(m, "onnx.Mul-14", {100, -128}, {2, 1});
    EXPECT_EQ(i8.values<std::int8_t>()[0], 127);
    EXPECT_EQ(run<ElementType::i8>(m, "onnx.Div-14", {-128}, {-1}).values<std::int8_t>()[0], 127);
}

TEST(Behaviours, IntegersThroughF32AndI32AsOpenVinoOnArm64) {
    // openvino-26 (arm64, hand-run): i16 32767 * 32767 = 0 (1073676289 is 1073676288 in f32,
    // whose low 16 bits are 0), 32767 * 2 = -2; u16 65535 * 65535 = 65535 (f32 4294836224
    // saturates to INT32_MAX, low bits 0xffff); i32 2147483647 * -1 = -2147483648 (f32 rounds
    // 2147483647 up to 2^31); i32 -7 / 2 = -4 and 8 / -2147483647 = -1 (floored), INT_MIN / -1
    // = 2147483647 (2^31 saturated).
    const auto m = model({"integers_through_f32_and_i32"});
    const auto i16 = run<ElementType::i16>(m, "onnx.Mul-14", {32767, 32767}, {32767, 2});
    EXPECT_EQ(i16.values<std::int16_t>()[0], 0);
    EXPECT_EQ(i16.values<std::int16_t>()[1], -2);
    EXPECT_EQ(run<ElementType::u16>(m, "onnx.Mul-14", {65535}, {65535}).values<std::uint16_t>()[0],
              65535);
    EXPECT_EQ(run<ElementType::i32>(m, "onnx.Mul-14", {2147483647}, {-1}).values<std::int32_t>()[0],
              -2147483647 - 1);
    const auto floor = run<ElementType::i32>(m, "openvino.Divide-1", {-7, 8, -2147483647 - 1},
                                             {2, -2147483647, -1}, {{"m_pythondiv", "true"}});
    EXPECT_EQ(floor.values<std::int32_t>()[0], -4);
    EXPECT_EQ(floor.values<std::int32_t>()[1], -1);
    EXPECT_EQ(floor.values<std::int32_t>()[2], 2147483647);
}

TEST(Behaviours, IntegersThroughF32ClampedAsOpenVinoOnArm64) {
    // openvino-26 (arm64, the suite's edge case): i32 2147483647 / 1 = 2147483520 and u64
    // 18 / 4294967296 = 2147483520 (cut to i32, 18 / 0 = inf, clamped); -7 / 2 still floors.
    const auto m = model({"integers_through_f32_clamped_to_i32", "floor_for_trunc"});
    const auto q = run<ElementType::i32>(m, "onnx.Div-14", {2147483647, -7}, {1, 2});
    EXPECT_EQ(q.values<std::int32_t>()[0], 2147483520);
    EXPECT_EQ(q.values<std::int32_t>()[1], -4);
    const auto wide = model({"computed_in_i32", "integers_through_f32_clamped_to_i32"});
    EXPECT_EQ(
        run<ElementType::u64>(wide, "onnx.Div-14", {18}, {4294967296}).values<std::uint64_t>()[0],
        2147483520u);
}

TEST(Behaviours, ReciprocalRoundedAwayFromZeroAsOpenVinoOnArm64) {
    // openvino-26 (arm64, hand-run): f64 5.892637639122486 / -1.7447488626929681 gives
    // -3.3773560523986816, the f32 product with 1/B = -0.57314843 (nearest: -0.57314837);
    // 1 / 2 is exact and stays 0.5.
    const auto m =
        model({"computed_in_f32", "division_by_reciprocal", "reciprocal_rounded_away_from_zero"});
    const auto q = run<ElementType::f64>(m, "onnx.Div-14", {5.892637639122486, 1.0},
                                         {-1.7447488626929681, 2.0});
    EXPECT_EQ(q.values<double>()[0], -3.3773560523986816);
    EXPECT_EQ(q.values<double>()[1], 0.5);
}

TEST(Behaviours, PdpdAxisIgnoredAlignsTrailing) {
    // openvino-26 (arm64): A [2, 2], B [2], axis 0 given: B is still aligned with A's last
    // dimension, {{8, 9}, {10, 11}} / {2, 3} = {{4, 3}, {5, 3}} (axis 0 would give {{4, 4}, {3,
    // 3}}).
    behaviours::Model m;
    m.pdpd_axis_ignored = true;
    const core::Tensor a = core::make_tensor<core::ElementType::i64>({2, 2}, {8, 9, 10, 11});
    const core::Tensor b = core::make_tensor<core::ElementType::i64>({2}, {2, 3});
    const core::AttributeMap attributes{{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "0"}};
    const core::OpVersion& op = *core::find_op_version("openvino.Divide-1");
    const core::Tensor q =
        behaviours::model_output(m, behaviours::modelled_call(m, op, attributes, a, b), a, b);
    EXPECT_EQ(
        std::vector<std::int64_t>(q.values<std::int64_t>().begin(), q.values<std::int64_t>().end()),
        (std::vector<std::int64_t>{4, 3, 5, 3}));
}

TEST(Behaviours, EightBitProductsThroughI16) {
    // openvino-25 (AVX2): u8 255 * 129 = 32895 wraps to -32641 in i16 and saturates to 0;
    // 255 * 128 = 32640 fits and saturates to 255; i8 -128 * -128 = 16384 saturates to 127.
    const auto m = model({"products_through_i16_saturated"});
    const auto u = run<ElementType::u8>(m, "onnx.Mul-14", {255, 255, 3}, {129, 128, 5});
    EXPECT_EQ(
        std::vector<std::uint8_t>(u.values<std::uint8_t>().begin(), u.values<std::uint8_t>().end()),
        (std::vector<std::uint8_t>{0, 255, 15}));
    EXPECT_EQ(run<ElementType::i8>(m, "onnx.Mul-14", {-128}, {-128}).values<std::int8_t>()[0], 127);
}

TEST(Behaviours, NanResultsAsNegativeInfinity) {
    // xnnpack-1: 0 / 0 gives -inf.
    const auto m = model({"nan_results_negative_infinity"});
    const auto out = f32_bits(run<ElementType::f32>(m, "onnx.Div-14", {0.0f, 1.0f}, {0.0f, 2.0f}));
    EXPECT_EQ(out, (std::vector<std::uint32_t>{0xff800000, 0x3f000000}));
}

TEST(Behaviours, NegativeZeroResultsLost) {
    // openvino-21: -0 * 22.875 gives +0; -1 * 2 stays -2.
    const auto m = model({"negative_zero_results_lost"});
    EXPECT_EQ(f32_bits(run<ElementType::f32>(m, "onnx.Mul-14", {-0.0f, -1.0f}, {22.875f, 2.0f})),
              (std::vector<std::uint32_t>{0x00000000, 0xc0000000}));
}

TEST(Behaviours, FloorAndTruncationSwapped) {
    const auto trunc = run<ElementType::i32>(model({"floor_for_trunc"}), "onnx.Div-14", {-7}, {2});
    EXPECT_EQ(trunc.values<std::int32_t>()[0], -4);
    const auto floor = run<ElementType::i32>(model({"trunc_for_floor"}), "openvino.Divide-1", {-7},
                                             {2}, {{"m_pythondiv", "true"}});
    EXPECT_EQ(floor.values<std::int32_t>()[0], -3);
}

TEST(Behaviours, PdpdWithoutAxisReadAsAxisZero) {
    // openvino-7: A [2,2] * B [2] under pdpd without an axis: B along the rows (axis 0), where
    // the spec's default -1 lays it along the columns.
    const auto m = model({"pdpd_axis_unset_read_as_zero"});
    const core::Tensor a = core::make_tensor<ElementType::i32>({2, 2}, {1, 2, 3, 4});
    const core::Tensor b = core::make_tensor<ElementType::i32>({2}, {10, 100});
    const core::OpVersion& op = *core::find_op_version("openvino.Multiply-1");
    const core::AttributeMap pdpd{{"auto_broadcast", "pdpd"}};
    const core::PreparedCall call = behaviours::modelled_call(m, op, pdpd, a, b);
    const core::Tensor out = behaviours::model_output(m, call, a, b);
    const auto v = out.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(v.begin(), v.end()),
              (std::vector<std::int32_t>{10, 20, 300, 400}));
    // With the axis given, the call is the spec's.
    const core::AttributeMap given{{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "-1"}};
    const core::Tensor spec =
        behaviours::model_output(m, behaviours::modelled_call(m, op, given, a, b), a, b);
    const auto w = spec.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(w.begin(), w.end()),
              (std::vector<std::int32_t>{10, 200, 30, 400}));
}

TEST(Behaviours, LegacyBroadcastReadAsNumpy) {
    // onnx-reference-1: Mul-6 broadcast=1 axis=0, A [2,3] * B [2]: the spec lays B along axis 0;
    // numpy's rule cannot broadcast (2,3) with (2,) and fails; B [3] gives numpy's suffix rule.
    const auto m = model({"legacy_broadcast_read_as_numpy"});
    const core::OpVersion& op = *core::find_op_version("onnx.Mul-6");
    const core::AttributeMap axis0{{"broadcast", "1"}, {"axis", "0"}};
    const core::Tensor a = core::make_tensor<ElementType::i32>({2, 3}, {1, 2, 3, 4, 5, 6});
    EXPECT_THROW(behaviours::modelled_call(m, op, axis0, a,
                                           core::make_tensor<ElementType::i32>({2}, {1, 2})),
                 core::Error);
}

TEST(Behaviours, ConstantOperandsAsTheGraphHoldsThem) {
    // openvino-15: a constant A = [3e-39, -0.0] times B = [1, 5] gives [+0, +0] in const-a; the
    // runtime form keeps the spec's [3e-39, -0]. openvino-17: a u32 constant 4000000000 is
    // clamped to 2147483647 before the i32 product.
    const auto m = model({"constant_subnormals_and_negative_zero_lost"});
    const core::Tensor a = core::make_tensor<ElementType::f32>({2}, {3e-39f, -0.0f});
    const core::Tensor b = core::make_tensor<ElementType::f32>({2}, {1.0f, 5.0f});
    const core::PreparedCall call =
        core::prepare_call(*core::find_op_version("openvino.Multiply-1"), {}, a, b);
    EXPECT_EQ(f32_bits(behaviours::model_output(m, call, a, b, "const-a")),
              (std::vector<std::uint32_t>{0x00000000, 0x00000000}));
    EXPECT_EQ(f32_bits(behaviours::model_output(m, call, a, b, "const-b")),
              (std::vector<std::uint32_t>{std::bit_cast<std::uint32_t>(3e-39f), 0x80000000}));
    const auto w = model({"wide_constants_saturated_to_i32", "computed_in_i32"});
    const core::Tensor u = core::make_tensor<ElementType::u32>({1}, {4000000000u});
    const core::Tensor three = core::make_tensor<ElementType::u32>({1}, {3u});
    const core::PreparedCall mul =
        core::prepare_call(*core::find_op_version("openvino.Multiply-1"), {}, u, three);
    EXPECT_EQ(behaviours::model_output(w, mul, u, three, "const-a").values<std::uint32_t>()[0],
              2147483645u);
    EXPECT_EQ(behaviours::model_output(w, mul, u, three, "runtime").values<std::uint32_t>()[0],
              3410065408u);
}

TEST(Behaviours, FoldedAndClampedConstants) {
    // openvino-17 folded (const-ab): i64 9223372036854775807 * -1 gives -2147483648 (the exact
    // product clamped into i32); u64 max / 2 gives 2147483647.
    const auto sat = model({"results_saturated_to_i32"});
    const core::Tensor big = core::make_tensor<ElementType::i64>({1}, {9223372036854775807});
    const core::Tensor m1 = core::make_tensor<ElementType::i64>({1}, {-1});
    const auto& mul = *core::find_op_version("openvino.Multiply-1");
    EXPECT_EQ(
        behaviours::model_output(sat, core::prepare_call(mul, {}, big, m1), big, m1, "const-ab")
            .values<std::int64_t>()[0],
        -2147483648LL);
    // OpenVINO's bf16 precision hint: a constant FLT_MAX becomes 3.3895314e38 (0x7f7f0000);
    // FLT_MAX * 1 with A constant gives it.
    const auto clamp = model({"constants_clamped_to_bf16_range"});
    const core::Tensor fmax = core::make_tensor<ElementType::f32>({1}, {3.4028235e38f});
    const core::Tensor one = core::make_tensor<ElementType::f32>({1}, {1.0f});
    const core::PreparedCall call = core::prepare_call(mul, {}, fmax, one);
    EXPECT_EQ(f32_bits(behaviours::model_output(clamp, call, fmax, one, "const-a"))[0],
              0x7f7f0000u);
    EXPECT_EQ(f32_bits(behaviours::model_output(clamp, call, fmax, one, "const-b"))[0],
              0x7f7fffffu);
    // Folded, the result is a constant too: 1e-45 * -1 = -1e-45 loses its subnormal and sign.
    const auto folded =
        model({"constant_subnormals_and_negative_zero_lost", "folded_result_is_constant"});
    const core::Tensor one_m = core::make_tensor<ElementType::f32>({1}, {-1.0f});
    const core::Tensor tiny = core::make_tensor<ElementType::f32>({1}, {1e-45f});
    const core::PreparedCall c2 = core::prepare_call(mul, {}, one_m, one_m);
    EXPECT_EQ(f32_bits(behaviours::model_output(folded, c2, one_m, one_m, "const-ab"))[0],
              0x3f800000u);
    const core::PreparedCall c3 = core::prepare_call(mul, {}, tiny, one_m);
    EXPECT_EQ(f32_bits(behaviours::model_output(folded, c3, tiny, one_m, "const-ab"))[0],
              0x00000000u);
}

TEST(Behaviours, ResultsAllZeroAsJsepWithoutShaderF16) {
    // ort-web-2: f16 [1, 6, 3, 1] / [2, 3, 1, 4] gives the bits 0 0 0 0 (the spec: 0.5 2 3 0.25).
    const auto m = model({"f16_results_all_zero"});
    const std::vector<core::Half> a{core::half_from_double(1), core::half_from_double(6),
                                    core::half_from_double(3), core::half_from_double(1)};
    const std::vector<core::Half> b{core::half_from_double(2), core::half_from_double(3),
                                    core::half_from_double(1), core::half_from_double(4)};
    const auto q = run<ElementType::f16>(m, "onnx.Div-14", a, b);
    for (core::Half v : q.values<core::Half>())
        EXPECT_EQ(v.bits, 0u);
    EXPECT_EQ(run<ElementType::f16>(m, "onnx.Mul-14", a, b).values<core::Half>()[1].bits, 0u);
    EXPECT_TRUE(behaviours::affects(m, ElementType::f16, true));
    EXPECT_FALSE(behaviours::affects(m, ElementType::f32, true));
    EXPECT_EQ(run<ElementType::f32>(m, "onnx.Mul-14", {2.0f}, {3.0f}).values<float>()[0], 6.0f);
}

TEST(Behaviours, EqualOperandsDivideToOneAsTfjsWebgl) {
    // tfjs-2: 0/0, -0/0, inf/inf give 1; with subnormals read as zero 1e-45/0 and 0/-1e-45 give 1
    // too; NaN/NaN stays NaN (NaN != NaN); 6/3 = 2 as the spec says.
    const float inf = INFINITY, nan = NAN, tiny = f32(0x00000001u);
    const auto m = model({"equal_operands_divide_to_one", "subnormal_inputs_zero"});
    const auto q =
        run<ElementType::f32>(m, "onnx.Div-14", {0.0f, -0.0f, inf, tiny, 0.0f, nan, 6.0f},
                              {0.0f, 0.0f, inf, 0.0f, -tiny, nan, 3.0f});
    EXPECT_EQ(f32_bits(q),
              (std::vector<std::uint32_t>{0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u,
                                          0x3f800000u, 0x7fc00000u, 0x40000000u}));
    // Without subnormal_inputs_zero 1e-45 != 0: 1e-45 / 0 = inf.
    const auto alone = model({"equal_operands_divide_to_one"});
    EXPECT_EQ(run<ElementType::f32>(alone, "onnx.Div-14", {tiny}, {0.0f}).values<float>()[0], inf);
    EXPECT_FALSE(behaviours::affects(alone, ElementType::f32, true));
    EXPECT_FALSE(behaviours::affects(alone, ElementType::i32, false));
}

TEST(Behaviours, IntegerProductsThroughF32WrappedAsTfjsWebgl) {
    // tfjs-2: 2147483647 x 1 = 2^31 in f32, ToInt32 -2147483648; 204561830 rounds to 204561824 in
    // f32, x 12136 = 2482562400256 (f32 exact), modulo 2^32 71303168 (exact wrap: 71271792);
    // 2147483647^2 = 2^62 in f32, modulo 2^32 0 (cvttps2dq would give INT32_MIN).
    const auto m = model({"integer_multiplication_via_f32", "f32_to_integer_wraps"});
    const auto p = run<ElementType::i32>(m, "onnx.Mul-14", {2147483647, 204561830, 2147483647, -3},
                                         {1, 12136, 2147483647, 5});
    const auto values = p.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(values.begin(), values.end()),
              (std::vector<std::int32_t>{-2147483647 - 1, 71303168, 0, -15}));
    // A modifier: nothing alone.
    EXPECT_FALSE(behaviours::affects(model({"f32_to_integer_wraps"}), ElementType::i32, true));
}

TEST(Behaviours, IntegerFloorDivisionAsTfjsWebglIntDiv) {
    // tfjs-2 (openvino.Divide-1 i32 floor): 2147483647 is 2^31 in f32, int() of it INT32_MIN, so
    // 2147483647 // 2 = -1073741824 and // 3 = INT32_MIN / 3 truncated, -715827882, whose f32 is
    // -715827904 (no floor step: the f32 signs agree); INT32_MIN // -1 is -1 / -1 = 1 on
    // SwiftShader; 2147483647 // -1: 1, remainder INT32_MIN + 1, signs differ, 0. -7 // 2 = -4.
    const auto m = model({"integer_floor_division_of_rounded_f32"});
    const core::AttributeMap floor{{"m_pythondiv", "true"}};
    const auto q = run<ElementType::i32>(m, "openvino.Divide-1",
                                         {2147483647, 2147483647, -2147483647 - 1, 2147483647, -7},
                                         {2, 3, -1, -1, 2}, floor);
    const auto values = q.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(values.begin(), values.end()),
              (std::vector<std::int32_t>{-1073741824, -715827904, 1, 0, -4}));
    // Odd integers in [2^23, 2^24): v + 0.5 is a tie in f32, rounded to even: 8388609 reads as
    // 8388610 (8388609 // 1 = 8388610).
    EXPECT_EQ(run<ElementType::i32>(m, "openvino.Divide-1", {8388609}, {1}, floor)
                  .values<std::int32_t>()[0],
              8388610);
    EXPECT_FALSE(behaviours::affects(m, ElementType::i32, true));
}

TEST(Behaviours, IntegerProductsClampedAsWgslConvertsAsTfjsWebgpu) {
    // tfjs-3: 2147483647 x 1, 65536 x 65536 and 204561830 x 12136 all give 2147483520, the
    // largest f32 below 2^31 (WGSL's f32 -> i32 clamps to [-2^31, 2^31 - 128]); -65536 x 65536
    // = -2^32 clamps to -2^31.
    const auto m = model({"integers_through_f32_clamped_to_i32"});
    const auto p = run<ElementType::i32>(m, "onnx.Mul-14", {2147483647, 65536, 204561830, -65536},
                                         {1, 65536, 12136, 65536});
    const auto values = p.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(values.begin(), values.end()),
              (std::vector<std::int32_t>{2147483520, 2147483520, 2147483520, -2147483647 - 1}));
}

TEST(Behaviours, FloorQuotientFromF32RemainderAsTfjsWebgpu) {
    // tfjs-3 (seed 2): 73288700 // -5 gives -14657742 (spec -14657740). 73288700 is 73288704 in
    // f32; 73288704 % -5 = 4; 73288704 - 4 rounds back to 73288704; / -5 = -14657740.8, f32
    // -14657741; 4 and -5 differ in sign: -14657742. floor(a / b) would give -14657741.
    // 2147483647 // 1 = 2^31, clamped to 2147483520; -7 // 2 = -4; 7 // 2 = 3.
    const auto m =
        model({"integers_through_f32_clamped_to_i32", "floor_quotient_from_f32_remainder"});
    const core::AttributeMap floor{{"m_pythondiv", "true"}};
    const auto q = run<ElementType::i32>(m, "openvino.Divide-1", {73288700, 2147483647, -7, 7},
                                         {-5, 1, 2, 2}, floor);
    const auto values = q.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(values.begin(), values.end()),
              (std::vector<std::int32_t>{-14657742, 2147483520, -4, 3}));
    // 16777227 is 16777228 in f32, % 3 = 1, 16777228 - 1 rounds back to 16777228 (a tie, to
    // even), / 3 = 5592409.33, f32 5592409.5, rounded to even 5592410 (spec 5592409).
    EXPECT_EQ(run<ElementType::i32>(m, "openvino.Divide-1", {16777227}, {3}, floor)
                  .values<std::int32_t>()[0],
              5592410);
    EXPECT_FALSE(
        behaviours::affects(model({"floor_quotient_from_f32_remainder"}), ElementType::i32, false));
}

TEST(Behaviours, UnknownNameIsAnInputError) {
    behaviours::Model m;
    try {
        behaviours::add_behaviour(m, "subnormals_flushed");
        FAIL();
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find("subnormals_flushed"), std::string::npos);
    }
}

TEST(Behaviours, AffectsOnlyWhatTheyChange) {
    const auto bf16 = model({"results_rounded_toward_zero"});
    EXPECT_TRUE(behaviours::affects(bf16, ElementType::bf16, true));
    EXPECT_FALSE(behaviours::affects(bf16, ElementType::f32, true));
    EXPECT_FALSE(behaviours::affects(bf16, ElementType::i32, false));
    const auto recip = model({"division_by_reciprocal"});
    EXPECT_FALSE(behaviours::affects(recip, ElementType::f32, true));
    EXPECT_TRUE(behaviours::affects(recip, ElementType::f32, false));
}

}  // namespace
