// The oracle's float rounding checked against a hand-computed table: every expected encoding
// below was worked out by hand from the format parameters (comments show the arithmetic), never
// by running the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/float_arithmetic.hpp"
#include "oracle/ieee_rounding.hpp"

namespace {

using core::ElementType;
using oracle::cpp_int;

constexpr std::uint64_t pow2(int n) {
    return std::uint64_t{1} << n;
}

// (-1)^negative * significand * 2^exponent rounds to `expected`.
struct RoundingCase {
    ElementType type;
    bool negative;
    std::uint64_t significand;
    long exponent;
    std::uint64_t expected;
    const char* what;
};

// Formats: f16 p=11 bias=15 (fraction 10 bits), bf16 p=8 bias=127 (7), f32 p=24 bias=127 (23),
// f64 p=53 bias=1023 (52). The ulp of [1,2) is 2^(1-p); the smallest subnormal is
// 2^(emin-(p-1)): f16 2^-24, bf16 2^-133, f32 2^-149, f64 2^-1074.
const std::vector<RoundingCase> kRoundingCases = {
    // ---- f16 ----
    {ElementType::f16, false, 1, 0, 0x3C00, "1.0: biased exponent 15 -> 15<<10"},
    {ElementType::f16, false, pow2(11) + 1, -11, 0x3C00,
     "1 + 2^-11: tie between 1 (even) and 1+2^-10 -> 1"},
    {ElementType::f16, false, pow2(11) + 3, -11, 0x3C02,
     "1 + 3*2^-11: tie between 1+2^-10 (odd) and 1+2^-9 (even fraction 2) -> up"},
    {ElementType::f16, false, pow2(20) + pow2(9) + 1, -20, 0x3C01,
     "1 + 2^-11 + 2^-20: just above the tie -> 1+2^-10"},
    {ElementType::f16, false, pow2(20) + pow2(9) - 1, -20, 0x3C00,
     "1 + 2^-11 - 2^-20: just below the tie -> 1"},
    {ElementType::f16, true, pow2(11) + 3, -11, 0xBC02, "negative tie rounds the magnitude"},
    {ElementType::f16, false, 2047, 5, 0x7BFF, "max = (2^11-1)*2^5 = 65504"},
    {ElementType::f16, false, 4095, 4, 0x7C00,
     "max + half ulp = 65520: tie between 2047*2^5 (odd) and 2^16 (even, overflows) -> inf"},
    {ElementType::f16, true, 4095, 4, 0xFC00, "-(max + half ulp) -> -inf"},
    {ElementType::f16, false, 65519, 0, 0x7BFF, "65519: below max + half ulp -> max"},
    {ElementType::f16, false, 1, 15, 0x7800, "2^15: biased 30 -> 30<<10"},
    {ElementType::f16, false, 1, 16, 0x7C00, "2^16 > max -> inf"},
    {ElementType::f16, false, 1, -14, 0x0400, "min normal 2^-14: biased exponent 1"},
    {ElementType::f16, false, 1, -24, 0x0001, "smallest subnormal 2^-24"},
    {ElementType::f16, false, 1, -25, 0x0000, "2^-25 = half of it: tie with 0 (even) -> +0"},
    {ElementType::f16, true, 1, -25, 0x8000, "-2^-25 -> -0"},
    {ElementType::f16, false, pow2(15) + 1, -40, 0x0001, "2^-25 + 2^-40: just above half"},
    {ElementType::f16, false, 3, -26, 0x0001, "3/4 of 2^-24 -> 2^-24"},
    {ElementType::f16, false, 3, -25, 0x0002, "1.5*2^-24: tie between 1 and 2 -> 2 (even)"},
    {ElementType::f16, false, 5, -25, 0x0002, "2.5*2^-24: tie between 2 and 3 -> 2 (even)"},
    {ElementType::f16, false, 1023, -24, 0x03FF, "largest subnormal 1023*2^-24"},
    {ElementType::f16, false, 2047, -25, 0x0400,
     "1023.5*2^-24: tie between 1023 (odd) and 1024 -> carries into min normal 2^-14"},
    {ElementType::f16, false, 4093, -26, 0x03FF, "1023.25*2^-24 -> largest subnormal"},
    {ElementType::f16, false, 1, -1000, 0x0000, "far below half the smallest subnormal -> +0"},
    {ElementType::f16, true, 0, 0, 0x8000, "exact -0"},
    {ElementType::f16, false, 0, 0, 0x0000, "exact +0"},
    // ---- bf16 ----
    {ElementType::bf16, false, 1, 0, 0x3F80, "1.0: biased 127 -> 127<<7"},
    {ElementType::bf16, false, pow2(8) + 1, -8, 0x3F80, "1 + 2^-8: tie -> 1 (even)"},
    {ElementType::bf16, false, pow2(8) + 3, -8, 0x3F82, "1 + 3*2^-8: tie -> 1+2^-6 (even)"},
    {ElementType::bf16, false, pow2(30) + pow2(22) + 1, -30, 0x3F81, "just above the tie"},
    {ElementType::bf16, false, pow2(30) + pow2(22) - 1, -30, 0x3F80, "just below the tie"},
    {ElementType::bf16, false, 255, 120, 0x7F7F, "max = (2^8-1)*2^120"},
    {ElementType::bf16, false, 511, 119, 0x7F80, "max + half ulp -> inf"},
    {ElementType::bf16, false, 511 * pow2(20) - 1, 99, 0x7F7F, "just below max + half ulp"},
    {ElementType::bf16, false, 1, -133, 0x0001, "smallest subnormal 2^-133"},
    {ElementType::bf16, false, 1, -134, 0x0000, "half of it -> +0"},
    {ElementType::bf16, false, pow2(20) + 1, -154, 0x0001, "2^-134 + 2^-154: just above half"},
    {ElementType::bf16, false, 3, -135, 0x0001, "3/4 of the smallest subnormal"},
    {ElementType::bf16, false, 255, -134, 0x0080,
     "127.5*2^-133: tie between 127 (odd) and 128 -> min normal 2^-126 (biased 1 -> 1<<7)"},
    {ElementType::bf16, true, 0, 0, 0x8000, "exact -0"},
    // ---- f32 ----
    {ElementType::f32, false, pow2(24) + 1, -24, 0x3F800000, "1 + 2^-24: tie -> 1"},
    {ElementType::f32, false, pow2(24) + 3, -24, 0x3F800002, "1 + 3*2^-24: tie -> up (even)"},
    {ElementType::f32, false, pow2(40) + pow2(16) + 1, -40, 0x3F800001, "just above the tie"},
    {ElementType::f32, false, pow2(40) + pow2(16) - 1, -40, 0x3F800000, "just below the tie"},
    {ElementType::f32, false, pow2(24) - 1, 104, 0x7F7FFFFF, "max = (2^24-1)*2^104"},
    {ElementType::f32, false, pow2(25) - 1, 103, 0x7F800000, "max + half ulp -> inf"},
    {ElementType::f32, true, pow2(25) - 1, 103, 0xFF800000, "-(max + half ulp) -> -inf"},
    {ElementType::f32, false, (pow2(25) - 1) * pow2(10) - 1, 93, 0x7F7FFFFF, "just below"},
    {ElementType::f32, false, 1, -149, 0x00000001, "smallest subnormal 2^-149"},
    {ElementType::f32, false, 1, -150, 0x00000000, "half of it -> +0"},
    {ElementType::f32, true, 1, -150, 0x80000000, "minus half of it -> -0"},
    {ElementType::f32, false, pow2(20) + 1, -170, 0x00000001, "just above half"},
    {ElementType::f32, false, 3, -151, 0x00000001, "3/4 of the smallest subnormal"},
    {ElementType::f32, false, pow2(24) - 1, -150, 0x00800000,
     "(2^23 - 1/2)*2^-149: tie -> min normal 2^-126"},
    // ---- f64 ----
    {ElementType::f64, false, pow2(53) + 1, -53, 0x3FF0000000000000, "1 + 2^-53: tie -> 1"},
    {ElementType::f64, false, pow2(53) + 3, -53, 0x3FF0000000000002, "1 + 3*2^-53 -> up"},
    {ElementType::f64, false, pow2(60) + pow2(7) + 1, -60, 0x3FF0000000000001, "above tie"},
    {ElementType::f64, false, pow2(60) + pow2(7) - 1, -60, 0x3FF0000000000000, "below tie"},
    {ElementType::f64, false, pow2(53) - 1, 971, 0x7FEFFFFFFFFFFFFF, "max = (2^53-1)*2^971"},
    {ElementType::f64, false, pow2(54) - 1, 970, 0x7FF0000000000000, "max + half ulp -> inf"},
    {ElementType::f64, false, (pow2(54) - 1) * pow2(10) - 1, 960, 0x7FEFFFFFFFFFFFFF, "below"},
    {ElementType::f64, false, 1, -1074, 0x0000000000000001, "smallest subnormal 2^-1074"},
    {ElementType::f64, false, 1, -1075, 0x0000000000000000, "half of it -> +0"},
    {ElementType::f64, false, pow2(20) + 1, -1095, 0x0000000000000001, "just above half"},
    {ElementType::f64, false, 3, -1076, 0x0000000000000001, "3/4 of the smallest subnormal"},
    {ElementType::f64, false, pow2(53) - 1, -1075, 0x0010000000000000,
     "(2^52 - 1/2)*2^-1074: tie -> min normal 2^-1022"},
    {ElementType::f64, true, 0, 0, 0x8000000000000000, "exact -0"},
};

TEST(RoundToFormat, HandComputedBoundaries) {
    for (const auto& c : kRoundingCases) {
        SCOPED_TRACE(std::string(core::name(c.type)) + ": " + c.what);
        EXPECT_EQ(oracle::round_to_format(c.type, c.negative, cpp_int(c.significand), c.exponent),
                  c.expected);
    }
}

TEST(RoundToFormat, RationalValuesUseTheExactQuotient) {
    using oracle::round_rational_to_format;
    // f16 around 1 + 2^-11 (a tie): 2049/1 * 2^-11 is the tie itself -> 1 (even).
    EXPECT_EQ(round_rational_to_format(ElementType::f16, false, 2049 * 3, 3, -11), 0x3C00);
    // (3*2049 + 1)/3 * 2^-11 is 1 + 2^-11 + 2^-11/3: just above the tie -> 1 + 2^-10.
    EXPECT_EQ(round_rational_to_format(ElementType::f16, false, 2049 * 3 + 1, 3, -11), 0x3C01);
    // (3*2049 - 1)/3 * 2^-11: just below the tie -> 1.
    EXPECT_EQ(round_rational_to_format(ElementType::f16, false, 2049 * 3 - 1, 3, -11), 0x3C00);
    // 1/3 * 2^-24 is a third of the smallest subnormal -> 0; 2/3 of it -> 2^-24.
    EXPECT_EQ(round_rational_to_format(ElementType::f16, false, 1, 3, -24), 0x0000);
    EXPECT_EQ(round_rational_to_format(ElementType::f16, true, 2, 3, -24), 0x8001);
    // 1/3 = 1.0101...b * 2^-2: f32 keeps the 23 fraction bits 0101...010 (0x2AAAAA); the
    // dropped bits 1010... are 2/3 of an ulp, above half -> 0x2AAAAB, biased exponent 125.
    EXPECT_EQ(round_rational_to_format(ElementType::f32, false, 1, 3, 0), 0x3EAAAAAB);
    // A huge denominator: 1/2^2000 underflows to +0 in f64.
    // 2^2000 spelled in hex (built at run time: GCC 12 warns falsely on a constant bit_set).
    const cpp_int huge("0x1" + std::string(500, '0'));
    EXPECT_EQ(round_rational_to_format(ElementType::f64, false, 1, huge, 0), 0);
}

// a op b = expected, encodings of one format.
struct ArithmeticCase {
    ElementType type;
    bool divide;
    std::uint64_t a, b, expected;
    const char* what;
};

const std::vector<ArithmeticCase> kArithmeticCases = {
    {ElementType::f16, false, 0x7BFF, 0x4000, 0x7C00, "f16 65504*2 = 131008 > max -> inf"},
    {ElementType::f16, false, 0x7BFF, 0x3C00, 0x7BFF, "f16 65504*1 = 65504"},
    {ElementType::bf16, false, 0x3F81, 0x3F81, 0x3F82,
     "bf16 (1+2^-7)^2 = 1 + 2^-6 + 2^-14: below half an ulp (2^-8) above 1+2^-6"},
    {ElementType::f16, true, 0x3C00, 0x4200, 0x3555,
     "f16 1/3: 1.0101010101|0101..b * 2^-2, dropped bits below half -> fraction 0x155, biased 13"},
    {ElementType::bf16, true, 0x3F80, 0x4040, 0x3EAB,
     "bf16 1/3: 1.0101010|1010..b * 2^-2, dropped bits above half -> fraction 0x2B, biased 125"},
    {ElementType::f32, true, 0x3F800000, 0x40400000, 0x3EAAAAAB, "f32 1/3"},
    {ElementType::f64, true, 0x3FF0000000000000, 0x4008000000000000, 0x3FD5555555555555,
     "f64 1/3: 52 fraction bits 0101...01, the next bits 0101... are below half"},
    {ElementType::f16, false, 0x0001, 0x3C00, 0x0001, "subnormal operand: 2^-24 * 1"},
    {ElementType::f16, false, 0x0001, 0x3800, 0x0000, "2^-24 * 0.5: tie -> +0"},
    {ElementType::f16, false, 0x8001, 0x3800, 0x8000, "-2^-24 * 0.5 -> -0"},
    {ElementType::f16, false, 0x0003, 0x3800, 0x0002, "3*2^-24 * 0.5 = 1.5*2^-24: tie -> 2"},
    {ElementType::f16, true, 0x0001, 0x4000, 0x0000, "2^-24 / 2: tie -> +0"},
    {ElementType::f16, true, 0x0400, 0x3C01, 0x03FF,
     "2^-14 / (1+2^-10) = 1024/(1+2^-10) * 2^-24 = 1023.0009..*2^-24 -> 1023"},
    {ElementType::f32, false, 0x8D800000, 0x0D800000, 0x80000000,
     "-2^-100 * 2^-100 = -2^-200: underflows to -0 (sign kept)"},
    {ElementType::f32, false, 0x7F7FFFFF, 0x3F800001, 0x7F800000, "max * (1+2^-23) -> inf"},
    {ElementType::f64, true, 0x3FF0000000000000, 0x0000000000000001, 0x7FF0000000000000,
     "1 / 2^-1074 = 2^1074 -> inf"},
};

// IEEE specials (IEEE 754-2019 6.1-6.3, 7.2, 7.3). f32: +0 0x0, -0 0x80000000, 1 0x3F800000,
// -1 0xBF800000, 5 0x40A00000, -3 0xC0400000, -2 0xC0000000, inf 0x7F800000, -inf 0xFF800000.
const std::vector<ArithmeticCase> kSpecialCases = {
    {ElementType::f32, false, 0x7F800000, 0xC0000000, 0xFF800000, "inf * -2 = -inf"},
    {ElementType::f32, false, 0xFF800000, 0xFF800000, 0x7F800000, "-inf * -inf = +inf"},
    {ElementType::f32, false, 0x80000000, 0x40A00000, 0x80000000, "-0 * 5 = -0"},
    {ElementType::f32, false, 0x80000000, 0x80000000, 0x00000000, "-0 * -0 = +0"},
    {ElementType::f32, true, 0x00000000, 0xC0400000, 0x80000000, "0 / -3 = -0"},
    {ElementType::f32, true, 0x80000000, 0xFF800000, 0x00000000, "-0 / -inf = +0"},
    {ElementType::f32, true, 0x3F800000, 0xFF800000, 0x80000000, "1 / -inf = -0"},
    {ElementType::f32, true, 0x3F800000, 0x00000000, 0x7F800000, "1 / +0 = +inf"},
    {ElementType::f32, true, 0x3F800000, 0x80000000, 0xFF800000, "1 / -0 = -inf"},
    {ElementType::f32, true, 0xBF800000, 0x80000000, 0x7F800000, "-1 / -0 = +inf"},
    {ElementType::f32, true, 0x7F800000, 0x80000000, 0xFF800000, "inf / -0 = -inf"},
    {ElementType::f32, true, 0xFF800000, 0x40A00000, 0xFF800000, "-inf / 5 = -inf"},
    {ElementType::f64, true, 0x3FF0000000000000, 0x0000000000000000, 0x7FF0000000000000,
     "f64 1/0 = +inf, not DBL_MAX (openvino issue 33564)"},
    {ElementType::f16, true, 0x8000, 0x3C00, 0x8000, "f16 -0 / 1 = -0"},
    {ElementType::bf16, false, 0x7F80, 0xBF80, 0xFF80, "bf16 inf * -1 = -inf"},
};

// a op b is a NaN.
const std::vector<ArithmeticCase> kNanCases = {
    {ElementType::f32, false, 0x7FC00000, 0x3F800000, 0, "NaN * 1"},
    {ElementType::f32, false, 0x3F800000, 0xFF800001, 0, "1 * signalling -NaN"},
    {ElementType::f32, false, 0x7F800000, 0x00000000, 0, "inf * 0"},
    {ElementType::f32, false, 0x80000000, 0xFF800000, 0, "-0 * -inf"},
    {ElementType::f32, true, 0x7F800000, 0xFF800000, 0, "inf / -inf"},
    {ElementType::f32, true, 0x00000000, 0x80000000, 0, "0 / -0"},
    {ElementType::f32, true, 0x7FC00000, 0x00000000, 0, "NaN / 0"},
    {ElementType::f16, false, 0x7C00, 0x0000, 0, "f16 inf * 0"},
    {ElementType::f16, true, 0x7E00, 0x7C00, 0, "f16 NaN / inf"},
    {ElementType::bf16, true, 0x0000, 0x0000, 0, "bf16 0 / 0"},
    {ElementType::f64, false, 0x7FF0000000000000, 0x8000000000000000, 0, "f64 inf * -0"},
    {ElementType::f64, true, 0x7FF8000000000000, 0x3FF0000000000000, 0, "f64 NaN / 1"},
};

std::uint64_t apply(const ArithmeticCase& c) {
    return c.divide ? oracle::divide_float(c.type, c.a, c.b)
                    : oracle::multiply_float(c.type, c.a, c.b);
}

// NaN: the exponent field all ones and a nonzero fraction.
bool is_nan(ElementType t, std::uint64_t bits) {
    switch (t) {
        case ElementType::f16:
            return (bits & 0x7FFF) > 0x7C00;
        case ElementType::bf16:
            return (bits & 0x7FFF) > 0x7F80;
        case ElementType::f32:
            return (bits & 0x7FFFFFFF) > 0x7F800000;
        default:
            return (bits & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000;
    }
}

TEST(FloatArithmetic, HandComputedProductsAndQuotients) {
    for (const auto& c : kArithmeticCases) {
        SCOPED_TRACE(c.what);
        EXPECT_EQ(apply(c), c.expected);
    }
}

TEST(FloatArithmetic, IeeeSpecials) {
    for (const auto& c : kSpecialCases) {
        SCOPED_TRACE(c.what);
        EXPECT_EQ(apply(c), c.expected);
    }
}

TEST(FloatArithmetic, InvalidOperationsGiveNaN) {
    for (const auto& c : kNanCases) {
        SCOPED_TRACE(c.what);
        EXPECT_TRUE(is_nan(c.type, apply(c)));
    }
}

}  // namespace
