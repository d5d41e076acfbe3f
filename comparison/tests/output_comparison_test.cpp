// Unit tests of comparison::compare_output and describe. Every expected value and every expected
// category is computed by hand next to the case (IEEE encodings written out in hex), never by
// running the reference or the code under test.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "comparison/output_comparison.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"

namespace {

using comparison::Comparison;
using comparison::ComparisonPolicy;
using comparison::NanPolicy;
using core::AttributeMap;
using core::BFloat16;
using core::ElementType;
using core::Half;
using core::OpOutput;
using core::Shape;
using core::Tensor;

using comparison::Category;
using Categories = comparison::CategoryCounts;

const AttributeMap kNone;
const AttributeMap kFloor{{"m_pythondiv", "true"}};

const core::OpVersion& op(std::string_view id) {
    const core::OpVersion* found = core::find_op_version(id);
    if (!found) throw std::logic_error("no op version " + std::string(id));
    return *found;
}

Comparison compare(std::string_view op_id, const AttributeMap& attributes, const Tensor& a,
                   const Tensor& b, const OpOutput& expected, const Tensor& actual,
                   ComparisonPolicy policy = {}, std::size_t limit = 8) {
    const core::PreparedCall call = core::prepare_call(op(op_id), attributes, a, b);
    return comparison::compare_output(call, a, b, expected, actual, policy, limit);
}

// One-element tensors of each family, from values or IEEE encodings.
template <ElementType T>
Tensor one(core::Storage<T> v) {
    return core::make_tensor<T>({1}, {v});
}
Tensor f32(std::uint32_t bits) {
    return one<ElementType::f32>(std::bit_cast<float>(bits));
}
Tensor f64(std::uint64_t bits) {
    return one<ElementType::f64>(std::bit_cast<double>(bits));
}
Tensor f16(std::uint16_t bits) {
    return one<ElementType::f16>(Half{bits});
}
Tensor bf16(std::uint16_t bits) {
    return one<ElementType::bf16>(BFloat16{bits});
}

// One-element comparison: a op b, expected and actual given; returns the categories.
Categories one_element(std::string_view op_id, const AttributeMap& attributes, const Tensor& a,
                       const Tensor& b, const Tensor& expected, const Tensor& actual,
                       ComparisonPolicy policy = {}) {
    return compare(op_id, attributes, a, b, OpOutput{expected, {}}, actual, policy).categories;
}

Categories only(Category category) {
    return {{category, 1}};
}

// ---------------------------------------------------------------------------------------------
// Integers

TEST(IntegerSaturation, U8ProductClampedToMaxInsteadOfWrapped) {
    // 200 * 2 = 400 = 256 + 144: wraps to 144; saturation gives 255.
    const Tensor a = one<ElementType::u8>(200), b = one<ElementType::u8>(2);
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, one<ElementType::u8>(144),
                          one<ElementType::u8>(255)),
              only(Category::integer_saturation));
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, one<ElementType::u8>(144),
                          one<ElementType::u8>(254)),
              only(Category::value));
}

TEST(IntegerSaturation, I8NegativeProductClampsToMin) {
    // 100 * -2 = -200 = 56 - 256: wraps to 56; saturation gives -128, not 127.
    const Tensor a = one<ElementType::i8>(100), b = one<ElementType::i8>(-2);
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, one<ElementType::i8>(56),
                          one<ElementType::i8>(-128)),
              only(Category::integer_saturation));
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, one<ElementType::i8>(56),
                          one<ElementType::i8>(127)),
              only(Category::value));
}

TEST(IntegerSaturation, I8MinTimesMinusOneClampsToMax) {
    // -128 * -1 = 128 = -128 + 256: wraps to -128; saturation gives 127.
    EXPECT_EQ(one_element("openvino.Multiply-1", kNone, one<ElementType::i8>(-128),
                          one<ElementType::i8>(-1), one<ElementType::i8>(-128),
                          one<ElementType::i8>(127)),
              only(Category::integer_saturation));
}

TEST(IntegerSaturation, I16AndSixtyFourBitProducts) {
    // i16: 300 * 200 = 60000 = 65536 - 5536: wraps to -5536, saturates to 32767.
    EXPECT_EQ(
        one_element("onnx.Mul-14", kNone, one<ElementType::i16>(300), one<ElementType::i16>(200),
                    one<ElementType::i16>(-5536), one<ElementType::i16>(32767)),
        only(Category::integer_saturation));
    // i64: -2^62 * 4 = -2^64: wraps to 0, saturates to INT64_MIN.
    const std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, one<ElementType::i64>(-(std::int64_t{1} << 62)),
                          one<ElementType::i64>(4), one<ElementType::i64>(0),
                          one<ElementType::i64>(i64_min)),
              only(Category::integer_saturation));
    // u64: 2^63 * 2 = 2^64: wraps to 0, saturates to 2^64 - 1.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, one<ElementType::u64>(std::uint64_t{1} << 63),
                          one<ElementType::u64>(2), one<ElementType::u64>(0),
                          one<ElementType::u64>(std::numeric_limits<std::uint64_t>::max())),
              only(Category::integer_saturation));
}

TEST(IntegerSaturation, InRangeProductIsNeverSaturation) {
    // 100 * 2 = 200 fits u8: an actual 255 is just a wrong value.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, one<ElementType::u8>(100), one<ElementType::u8>(2),
                          one<ElementType::u8>(200), one<ElementType::u8>(255)),
              only(Category::value));
}

TEST(IntegerSaturation, MinDividedByMinusOneClampsToMax) {
    // INT32_MIN / -1 = 2^31: wraps to INT32_MIN (docs/SEMANTICS.md section 2.4); saturation
    // gives INT32_MAX.
    const std::int32_t min = std::numeric_limits<std::int32_t>::min();
    EXPECT_EQ(one_element("onnx.Div-14", kNone, one<ElementType::i32>(min),
                          one<ElementType::i32>(-1), one<ElementType::i32>(min),
                          one<ElementType::i32>(std::numeric_limits<std::int32_t>::max())),
              only(Category::integer_saturation));
}

TEST(FloorVsTrunc, OnnxTruncationAnsweredWithFloor) {
    // Div-14 truncates: -7 / 2 = -3.5 -> -3; floor would give -4.
    const Tensor a = one<ElementType::i32>(-7), b = one<ElementType::i32>(2);
    EXPECT_EQ(one_element("onnx.Div-14", kNone, a, b, one<ElementType::i32>(-3),
                          one<ElementType::i32>(-4)),
              only(Category::floor_vs_trunc));
    EXPECT_EQ(one_element("onnx.Div-14", kNone, a, b, one<ElementType::i32>(-3),
                          one<ElementType::i32>(-5)),
              only(Category::value));
}

TEST(FloorVsTrunc, PythondivFloorAnsweredWithTruncation) {
    // Divide-1, m_pythondiv=true: floor(-7 / 2) = -4; truncation would give -3.
    const Tensor a = one<ElementType::i64>(-7), b = one<ElementType::i64>(2);
    EXPECT_EQ(one_element("openvino.Divide-1", kFloor, a, b, one<ElementType::i64>(-4),
                          one<ElementType::i64>(-3)),
              only(Category::floor_vs_trunc));
}

TEST(FloorVsTrunc, UnsignedHasNoOtherRounding) {
    // u32 7 / 2 = 3 under both roundings: an actual 4 is a wrong value.
    EXPECT_EQ(
        one_element("openvino.Divide-1", kFloor, one<ElementType::u32>(7), one<ElementType::u32>(2),
                    one<ElementType::u32>(3), one<ElementType::u32>(4)),
        only(Category::value));
}

TEST(FloorVsTrunc, MultiplicationNeverClassifiesAsDivision) {
    // -7 * 2 = -14; an actual -4 (the floor quotient) is a wrong value for a product.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, one<ElementType::i16>(-7), one<ElementType::i16>(2),
                          one<ElementType::i16>(-14), one<ElementType::i16>(-4)),
              only(Category::value));
}

TEST(Undefined, DivisionByZeroElementsAreNeverCompared) {
    // [6, 5] / [0, 5]: element 0 undefined (slot holds 0), element 1 = 1.
    const Tensor a = core::make_tensor<ElementType::i32>({2}, {6, 5});
    const Tensor b = core::make_tensor<ElementType::i32>({2}, {0, 5});
    const OpOutput expected{core::make_tensor<ElementType::i32>({2}, {0, 1}), {0}};
    const auto actual = [](std::int32_t x, std::int32_t y) {
        return core::make_tensor<ElementType::i32>({2}, {x, y});
    };
    EXPECT_TRUE(compare("onnx.Div-14", kNone, a, b, expected, actual(123, 1), {}).passed());
    const Comparison c = compare("onnx.Div-14", kNone, a, b, expected, actual(123, 2), {});
    EXPECT_EQ(c.categories, only(Category::value));
    ASSERT_EQ(c.first.size(), 1u);
    EXPECT_EQ(c.first[0].index, 1);
}

// ---------------------------------------------------------------------------------------------
// Floats: f32 encodings used below. 1.0 = 0x3F800000, 2.0 = 0x40000000, 5.0 = 0x40A00000,
// 2^e for normal e is (127 + e) << 23, 2^-140 = 2^9 * 2^-149 is the subnormal 0x00000200.

TEST(SignedZero, MinusZeroAnsweredWithPlusZero) {
    // -0 * 5 = -0.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x80000000), f32(0x40A00000), f32(0x80000000),
                          f32(0x00000000)),
              only(Category::signed_zero));
}

TEST(SignedZero, UlpToleranceDoesNotForgiveTheSignOfZero) {
    ComparisonPolicy policy;
    policy.ulp = 4;
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x80000000), f32(0x40A00000), f32(0x80000000),
                          f32(0x00000000), policy),
              only(Category::signed_zero));
}

TEST(SubnormalFlush, SubnormalResultFlushedToZero) {
    // 2^-70 * 2^-70 = 2^-140 (subnormal 0x200); 2^-70 = 57 << 23 = 0x1C800000.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x1C800000), f32(0x1C800000), f32(0x00000200),
                          f32(0x00000000)),
              only(Category::subnormal_flush));
    // 1e-39 * 1 = 1e-39, below the smallest normal 2^-126 ~ 1.18e-38.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, one<ElementType::f32>(1e-39f), f32(0x3F800000),
                          one<ElementType::f32>(1e-39f), f32(0x00000000)),
              only(Category::subnormal_flush));
}

TEST(SubnormalFlush, SubnormalInputFlushedGivesZero) {
    // 2^-140 * 2^100 = 2^-40, a normal: (127 - 40) << 23 = 0x2B800000; 2^100 = 0x71800000.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x00000200), f32(0x71800000), f32(0x2B800000),
                          f32(0x00000000)),
              only(Category::subnormal_flush));
    // Without a subnormal anywhere, a zero is a wrong value: 1 * 1 = 1, actual 0.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x3F800000), f32(0x3F800000), f32(0x3F800000),
                          f32(0x00000000)),
              only(Category::value));
}

TEST(SubnormalFlush, TakesPrecedenceOverRounding) {
    // Expected the smallest subnormal 2^-149 (0x1), actual +0: one ordinal apart, but a flush.
    // 2^-75 * 2^-74 = 2^-149; 2^-75 = 52 << 23 = 0x1A000000, 2^-74 = 53 << 23 = 0x1A800000.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x1A000000), f32(0x1A800000), f32(0x00000001),
                          f32(0x00000000)),
              only(Category::subnormal_flush));
}

TEST(Overflow, HalfMaxTimesTwoIsInfinity) {
    // f16: 65504 = 0x7BFF, 2 = 0x4000, 65504 * 2 = 131008 > 65520 -> inf = 0x7C00.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f16(0x7BFF), f16(0x4000), f16(0x7C00), f16(0x7BFF)),
              only(Category::overflow));
}

TEST(Overflow, UlpToleranceNeverAcceptsInfinityAgainstFinite) {
    // max and inf are one ordinal apart; the documented decision is that this is an overflow.
    ComparisonPolicy policy;
    policy.ulp = 1;
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f16(0x7BFF), f16(0x4000), f16(0x7C00), f16(0x7BFF),
                          policy),
              only(Category::overflow));
}

TEST(Overflow, DoubleOneOverZeroAnsweredWithFloatMax) {
    // f64 1 / 0 = inf (0x7FF0000000000000); FLT_MAX = 2^128 - 2^104 is 0x47EFFFFFE0000000.
    EXPECT_EQ(one_element("onnx.Div-14", kNone, f64(0x3FF0000000000000), f64(0),
                          f64(0x7FF0000000000000), f64(0x47EFFFFFE0000000)),
              only(Category::overflow));
}

TEST(Rounding, OneUlpApartInEveryFloatType) {
    // 1/3: f32 0x3EAAAAAB (round up of ...AAAA|AAA..), f64 0x3FD5555555555555,
    // bf16: the f32 pattern 0x3EAA|AAAB rounds to 0x3EAB, f16 1/3 = 0x3555.
    EXPECT_EQ(one_element("onnx.Div-14", kNone, f32(0x3F800000), f32(0x40400000), f32(0x3EAAAAAB),
                          f32(0x3EAAAAAA)),
              only(Category::rounding));
    EXPECT_EQ(one_element("onnx.Div-14", kNone, f64(0x3FF0000000000000), f64(0x4008000000000000),
                          f64(0x3FD5555555555555), f64(0x3FD5555555555556)),
              only(Category::rounding));
    EXPECT_EQ(
        one_element("onnx.Div-14", kNone, bf16(0x3F80), bf16(0x4040), bf16(0x3EAB), bf16(0x3EAA)),
        only(Category::rounding));
    EXPECT_EQ(one_element("onnx.Div-14", kNone, f16(0x3C00), f16(0x4200), f16(0x3555), f16(0x3554)),
              only(Category::rounding));
    // Two ordinals apart is a wrong value.
    EXPECT_EQ(one_element("onnx.Div-14", kNone, f32(0x3F800000), f32(0x40400000), f32(0x3EAAAAAB),
                          f32(0x3EAAAAA9)),
              only(Category::value));
}

TEST(Rounding, OrdinalsTreatBothZerosAsOnePoint) {
    // -2^-149 and +2^-149 are 2 ordinals apart (-min, 0, +min), not 3.
    // -2^-149 = -2^-75 * 2^-74: a = 0x9A000000, b = 0x1A800000.
    const Tensor a = f32(0x9A000000), b = f32(0x1A800000);
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, f32(0x80000001), f32(0x00000001)),
              only(Category::value));
    ComparisonPolicy policy;
    policy.ulp = 2;
    const Comparison c =
        compare("onnx.Mul-14", kNone, a, b, OpOutput{f32(0x80000001), {}}, f32(0x00000001), policy);
    EXPECT_TRUE(c.passed());
    EXPECT_EQ(c.allowances, std::set<std::string>{"ulp"});
}

TEST(UlpAllowance, WithinToleranceRecordsTheAllowance) {
    ComparisonPolicy policy;
    policy.ulp = 1;
    const Comparison c = compare("onnx.Div-14", kNone, f32(0x3F800000), f32(0x40400000),
                                 OpOutput{f32(0x3EAAAAAB), {}}, f32(0x3EAAAAAA), policy);
    EXPECT_TRUE(c.passed());
    EXPECT_EQ(c.allowances, std::set<std::string>{"ulp"});
    // Beyond the tolerance: still a failure, and no allowance was used.
    const Comparison far = compare("onnx.Div-14", kNone, f32(0x3F800000), f32(0x40400000),
                                   OpOutput{f32(0x3EAAAAAB), {}}, f32(0x3EAAAAA9), policy);
    EXPECT_EQ(far.categories, only(Category::value));
    EXPECT_TRUE(far.allowances.empty());
}

TEST(Nan, NanAgainstNumberEitherWay) {
    // 0 * inf = NaN (0x7FC00000); actual 1.0.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0), f32(0x7F800000), f32(0x7FC00000),
                          f32(0x3F800000)),
              only(Category::nan));
    // 1 * 1 = 1; actual NaN. A huge ulp tolerance never accepts NaN against a number.
    ComparisonPolicy policy;
    policy.ulp = 1 << 30;
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x3F800000), f32(0x3F800000), f32(0x3F800000),
                          f32(0x7FC00000), policy),
              only(Category::nan));
}

TEST(Nan, PayloadAndSignMatterOnlyUnderStrict) {
    const Tensor a = f32(0), b = f32(0x7F800000), expected = f32(0x7FC00000);
    ComparisonPolicy strict;
    strict.nan = NanPolicy::strict;
    for (const std::uint32_t other : {0x7FC00001u, 0xFFC00000u}) {
        EXPECT_TRUE(one_element("onnx.Mul-14", kNone, a, b, expected, f32(other)).empty());
        EXPECT_EQ(one_element("onnx.Mul-14", kNone, a, b, expected, f32(other), strict),
                  only(Category::nan));
    }
    EXPECT_TRUE(one_element("onnx.Mul-14", kNone, a, b, expected, f32(0x7FC00000), strict).empty());
}

TEST(FtzAllowance, FlushedInputAndOutputPassOnlyWhenAllowed) {
    ComparisonPolicy ftz;
    ftz.allow_ftz = true;
    // Input flushed: 2^-140 * 2^100 = 2^-40; DAZ gives 0 * 2^100 = +0.
    const Comparison in = compare("onnx.Mul-14", kNone, f32(0x00000200), f32(0x71800000),
                                  OpOutput{f32(0x2B800000), {}}, f32(0), ftz);
    EXPECT_TRUE(in.passed());
    EXPECT_EQ(in.allowances, std::set<std::string>{"ftz"});
    // Output flushed: 2^-70 * 2^-70 = 2^-140 -> +0.
    EXPECT_TRUE(compare("onnx.Mul-14", kNone, f32(0x1C800000), f32(0x1C800000),
                        OpOutput{f32(0x00000200), {}}, f32(0), ftz)
                    .passed());
    // The flushed zero keeps its sign: -2^-140 * 2^100 under DAZ is -0, so +0 still fails.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x80000200), f32(0x71800000), f32(0xAB800000),
                          f32(0), ftz),
              only(Category::subnormal_flush));
    EXPECT_TRUE(one_element("onnx.Mul-14", kNone, f32(0x80000200), f32(0x71800000), f32(0xAB800000),
                            f32(0x80000000), ftz)
                    .empty());
    // No subnormal involved: 1 * 1 = 1, actual 0 is not excused.
    EXPECT_EQ(one_element("onnx.Mul-14", kNone, f32(0x3F800000), f32(0x3F800000), f32(0x3F800000),
                          f32(0), ftz),
              only(Category::value));
}

TEST(FtzAllowance, HalfSubnormalsDividedBecomeZeroOverZero) {
    // f16: 2^-24 (0x0001) / 2^-24 = 1 (0x3C00); under DAZ 0 / 0 = NaN.
    ComparisonPolicy ftz;
    ftz.allow_ftz = true;
    const Tensor tiny = f16(0x0001);
    EXPECT_EQ(one_element("onnx.Div-14", kNone, tiny, tiny, f16(0x3C00), f16(0x7E00)),
              only(Category::nan));
    const Comparison c =
        compare("onnx.Div-14", kNone, tiny, tiny, OpOutput{f16(0x3C00), {}}, f16(0x7E00), ftz);
    EXPECT_TRUE(c.passed());
    EXPECT_EQ(c.allowances, std::set<std::string>{"ftz"});
    // bf16: 2^-133 (0x0001) * 2 = 2^-132 (0x0002); flushed output +0 passes under ftz only.
    EXPECT_EQ(
        one_element("onnx.Mul-14", kNone, bf16(0x0001), bf16(0x4000), bf16(0x0002), bf16(0x0000)),
        only(Category::subnormal_flush));
    EXPECT_TRUE(one_element("onnx.Mul-14", kNone, bf16(0x0001), bf16(0x4000), bf16(0x0002),
                            bf16(0x0000), ftz)
                    .empty());
}

// ---------------------------------------------------------------------------------------------
// Shape, dtype, broadcasting, limits

TEST(Header, ShapeIsCheckedBeforeTypeAndElements) {
    const Tensor a = core::make_tensor<ElementType::i32>({2}, {1, 2});
    const OpOutput expected{core::make_tensor<ElementType::i32>({2}, {1, 4}), {}};
    const Tensor wrong_shape = core::make_tensor<ElementType::i64>({2, 1}, {9, 9});
    const Comparison c = compare("onnx.Mul-14", kNone, a, a, expected, wrong_shape);
    EXPECT_EQ(c.categories, only(Category::shape));
    ASSERT_EQ(c.first.size(), 1u);
    EXPECT_EQ(c.first[0].index, -1);
    EXPECT_EQ(c.first[0].expected, "(2)");
    EXPECT_EQ(c.first[0].actual, "(2,1)");
}

TEST(Header, DtypeIsCheckedBeforeElements) {
    const Tensor a = core::make_tensor<ElementType::i32>({2}, {1, 2});
    const OpOutput expected{core::make_tensor<ElementType::i32>({2}, {1, 4}), {}};
    const Tensor wrong_type = core::make_tensor<ElementType::i64>({2}, {7, 7});
    const Comparison c = compare("onnx.Mul-14", kNone, a, a, expected, wrong_type);
    EXPECT_EQ(c.categories, only(Category::dtype));
    ASSERT_EQ(c.first.size(), 1u);
    EXPECT_EQ(c.first[0].expected, "i32");
    EXPECT_EQ(c.first[0].actual, "i64");
}

// Every actual is expected + 1, so every element mismatches and reports its own inputs.
void expect_inputs_reported(const Tensor& a, const Tensor& b, const Shape& shape,
                            const std::vector<std::int32_t>& product,
                            const std::vector<std::string>& a_of,
                            const std::vector<std::string>& b_of) {
    std::vector<std::int32_t> off_by_one = product;
    for (auto& v : off_by_one)
        v += 1;
    const OpOutput expected{core::make_tensor<ElementType::i32>(shape, product), {}};
    const Tensor actual = core::make_tensor<ElementType::i32>(shape, off_by_one);
    const Comparison c = compare("onnx.Mul-14", kNone, a, b, expected, actual, {}, product.size());
    const auto n = static_cast<std::int64_t>(product.size());
    EXPECT_EQ(c.categories, (Categories{{Category::value, n}}));
    ASSERT_EQ(c.first.size(), product.size());
    for (std::size_t i = 0; i < product.size(); ++i) {
        EXPECT_EQ(c.first[i].index, static_cast<std::int64_t>(i));
        EXPECT_EQ(c.first[i].a, a_of[i]) << i;
        EXPECT_EQ(c.first[i].b, b_of[i]) << i;
        EXPECT_EQ(c.first[i].expected, std::to_string(product[i])) << i;
        EXPECT_EQ(c.first[i].actual, std::to_string(product[i] + 1)) << i;
    }
}

TEST(Broadcast, EachMismatchNamesItsOwnInputs) {
    // a (2,1,2) = [[1,2]],[[3,4]] times b (3,1) = [10,20,30] -> (2,3,2):
    // out[i][j][k] = a[i][k] * b[j].
    expect_inputs_reported(
        core::make_tensor<ElementType::i32>({2, 1, 2}, {1, 2, 3, 4}),
        core::make_tensor<ElementType::i32>({3, 1}, {10, 20, 30}), {2, 3, 2},
        {10, 20, 20, 40, 30, 60, 30, 40, 60, 80, 90, 120},
        {"1", "2", "1", "2", "1", "2", "3", "4", "3", "4", "3", "4"},
        {"10", "10", "20", "20", "30", "30", "10", "10", "20", "20", "30", "30"});
}

TEST(Broadcast, OuterDimsWrapWithBothInputsMoving) {
    // a (2,3,1) = [1..6] times b (3,2) = [10..60] -> (2,3,2): out[i][j][k] = a[i][j] * b[j][k],
    // a[i][j] = 3i + j + 1, b[j][k] = 10 (2j + k + 1). Dim 1 wraps with both inputs moving.
    expect_inputs_reported(
        core::make_tensor<ElementType::i32>({2, 3, 1}, {1, 2, 3, 4, 5, 6}),
        core::make_tensor<ElementType::i32>({3, 2}, {10, 20, 30, 40, 50, 60}), {2, 3, 2},
        {10, 20, 60, 80, 150, 180, 40, 80, 150, 200, 300, 360},
        {"1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6"},
        {"10", "20", "30", "40", "50", "60", "10", "20", "30", "40", "50", "60"});
}

TEST(Broadcast, ScalarsHaveOneElement) {
    // () * () = (): 2 * 3 = 6, actual 7.
    const Tensor a = core::make_tensor<ElementType::i32>({}, {2});
    const Tensor b = core::make_tensor<ElementType::i32>({}, {3});
    const OpOutput expected{core::make_tensor<ElementType::i32>({}, {6}), {}};
    const Comparison c =
        compare("onnx.Mul-14", kNone, a, b, expected, core::make_tensor<ElementType::i32>({}, {7}));
    EXPECT_EQ(c.categories, only(Category::value));
    ASSERT_EQ(c.first.size(), 1u);
    EXPECT_EQ(c.first[0].a, "2");
    EXPECT_EQ(c.first[0].b, "3");
}

TEST(Limit, FirstMismatchesAreCappedButCountsAreComplete) {
    // u8 (20) * (1) -> 20 elements of 200 * 2 = 144 (wrapped). Actual: 255 on even indices
    // (saturation, 10 of them), 0 on odd ones (value, 10).
    const Tensor a = core::make_tensor<ElementType::u8>({20}, std::vector<std::uint8_t>(20, 200));
    const Tensor b = core::make_tensor<ElementType::u8>({1}, {2});
    std::vector<std::uint8_t> got(20);
    for (std::size_t i = 0; i < 20; ++i)
        got[i] = i % 2 == 0 ? 255 : 0;
    const OpOutput expected{
        core::make_tensor<ElementType::u8>({20}, std::vector<std::uint8_t>(20, 144)), {}};
    const Comparison c = compare("onnx.Mul-14", kNone, a, b, expected,
                                 core::make_tensor<ElementType::u8>({20}, got), {}, 3);
    EXPECT_EQ(c.categories,
              (Categories{{Category::integer_saturation, 10}, {Category::value, 10}}));
    // The first 3 (limit), and the first 3 of each category: indices 0-5, alternating.
    ASSERT_EQ(c.first.size(), 6u);
    for (std::int64_t i = 0; i < 6; ++i) {
        EXPECT_EQ(c.first[static_cast<std::size_t>(i)].index, i);
        EXPECT_EQ(c.first[static_cast<std::size_t>(i)].category,
                  i % 2 == 0 ? Category::integer_saturation : Category::value);
    }
}

TEST(Limit, ACategoryThatStartsLateStillShowsItsFirstMismatches) {
    // u8 (12) * (1): 200 * 2 = 144 wrapped. Actual 255 (saturation) at 0-8, 0 (value) at 9-11.
    const Tensor a = core::make_tensor<ElementType::u8>({12}, std::vector<std::uint8_t>(12, 200));
    const Tensor b = core::make_tensor<ElementType::u8>({1}, {2});
    std::vector<std::uint8_t> got(12, 255);
    got[9] = got[10] = got[11] = 0;
    const OpOutput expected{
        core::make_tensor<ElementType::u8>({12}, std::vector<std::uint8_t>(12, 144)), {}};
    const Comparison c = compare("onnx.Mul-14", kNone, a, b, expected,
                                 core::make_tensor<ElementType::u8>({12}, got), {}, 2);
    ASSERT_EQ(c.first.size(), 6u);  // 0, 1, 2 (the limit, then saturation's first 3), 9, 10, 11
    EXPECT_EQ(c.first[2].index, 2);
    EXPECT_EQ(c.first[3].index, 9);
    EXPECT_EQ(c.first[3].category, Category::value);
    EXPECT_EQ(c.first[5].index, 11);
}

TEST(Misuse, InputsThatDoNotFitTheCallAreRejected) {
    const Tensor a = core::make_tensor<ElementType::i32>({2}, {1, 2});
    const core::PreparedCall call = core::prepare_call(op("onnx.Mul-14"), kNone, a, a);
    const OpOutput wrong{core::make_tensor<ElementType::i32>({3}, {1, 4, 9}), {}};
    EXPECT_THROW(comparison::compare_output(call, a, a, wrong, wrong.value, {}),
                 std::invalid_argument);
    const Tensor short_a = core::make_tensor<ElementType::i32>({1}, {1});
    const OpOutput expected{core::make_tensor<ElementType::i32>({2}, {1, 4}), {}};
    EXPECT_THROW(comparison::compare_output(call, short_a, a, expected, expected.value, {}),
                 std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// describe

TEST(Describe, PassedAndAllowances) {
    Comparison c;
    EXPECT_EQ(comparison::describe(c), "passed");
    c.allowances = {"ftz", "ulp"};
    EXPECT_EQ(comparison::describe(c), "passed (allowed: ftz ulp)");
}

TEST(Describe, SummaryThenMismatchesWithBits) {
    const Comparison c = compare("onnx.Mul-14", kNone, f16(0x7BFF), f16(0x4000),
                                 OpOutput{f16(0x7C00), {}}, f16(0x7BFF));
    EXPECT_EQ(comparison::describe(c),
              "overflow:1\n"
              "  [0] overflow: a=65504 (0x7bff) b=2 (0x4000) expected inf (0x7c00), "
              "actual 65504 (0x7bff)");
}

TEST(Describe, IntegersWithoutBitsAndTheRestCounted) {
    // [-7] x 5 / 2 with floor: expected -4 each; actual -3 each, limit 1: the category's first
    // three are listed.
    const std::vector<std::int32_t> sevens(5, -7), fours(5, -4), threes(5, -3);
    const Tensor a = core::make_tensor<ElementType::i32>({5}, sevens);
    const Tensor b = core::make_tensor<ElementType::i32>({1}, {2});
    const OpOutput expected{core::make_tensor<ElementType::i32>({5}, fours), {}};
    const Comparison c = compare("openvino.Divide-1", kFloor, a, b, expected,
                                 core::make_tensor<ElementType::i32>({5}, threes), {}, 1);
    EXPECT_EQ(comparison::describe(c),
              "floor_vs_trunc:5\n"
              "  [0] floor_vs_trunc: a=-7 b=2 expected -4, actual -3\n"
              "  [1] floor_vs_trunc: a=-7 b=2 expected -4, actual -3\n"
              "  [2] floor_vs_trunc: a=-7 b=2 expected -4, actual -3\n"
              "  ... and 2 more");
}

}  // namespace

namespace {

TEST(Empty, AnEmptyOutputEqualsAnEmptyOutput) {
    // (0) * (1): the spec's broadcast gives an empty output; nothing to compare, and the fast
    // path must not hand memcmp the null data of an empty buffer (UBSan checks).
    const Tensor a = core::make_tensor<ElementType::f32>({0}, std::vector<float>{});
    const Tensor b = core::make_tensor<ElementType::f32>({1}, {2.0f});
    const OpOutput expected{core::make_tensor<ElementType::f32>({0}, std::vector<float>{}), {}};
    const Comparison c =
        compare("onnx.Mul-14", kNone, a, b, expected,
                core::make_tensor<ElementType::f32>({0}, std::vector<float>{}), {}, 8);
    EXPECT_TRUE(c.passed());
}

}  // namespace
