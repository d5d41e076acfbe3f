// Integer products and quotients of the oracle against hand-computed values (docs/SEMANTICS.md
// section 2): wrap modulo 2^N, truncating and floor division, division by zero, MIN / -1.
#include <gtest/gtest.h>

#include <cstdint>

#include "oracle/integer_arithmetic.hpp"

namespace {

using core::ElementType;
using core::IntegerRounding;
using oracle::cpp_int;

TEST(IntegerArithmetic, MultiplyWrapsModulo2N) {
    // i8 127*2 = 254 = 256 - 2 -> -2, encoded 0xFE.
    auto r = oracle::multiply_integer(ElementType::i8, 0x7F, 0x02);
    EXPECT_EQ(r.exact, 254);
    EXPECT_EQ(r.wrapped_bits, 0xFEu);
    EXPECT_TRUE(r.overflow);
    EXPECT_FALSE(r.undefined);
    // i8 -128 * -1 = 128 -> -128 (0x80).
    r = oracle::multiply_integer(ElementType::i8, 0x80, 0xFF);
    EXPECT_EQ(r.exact, 128);
    EXPECT_EQ(r.wrapped_bits, 0x80u);
    EXPECT_TRUE(r.overflow);
    // i8 -3 * 5 = -15 (0xF1), in range.
    r = oracle::multiply_integer(ElementType::i8, 0xFD, 0x05);
    EXPECT_EQ(r.exact, -15);
    EXPECT_EQ(r.wrapped_bits, 0xF1u);
    EXPECT_FALSE(r.overflow);
    // u8 200*2 = 400 = 256 + 144 -> 144 (0x90).
    r = oracle::multiply_integer(ElementType::u8, 200, 2);
    EXPECT_EQ(r.wrapped_bits, 0x90u);
    EXPECT_TRUE(r.overflow);
    // u64 (2^64-1)^2 = 2^128 - 2^65 + 1 = 1 mod 2^64.
    r = oracle::multiply_integer(ElementType::u64, ~std::uint64_t{0}, ~std::uint64_t{0});
    EXPECT_EQ(r.exact, (cpp_int(1) << 128) - (cpp_int(1) << 65) + 1);
    EXPECT_EQ(r.wrapped_bits, 1u);
    EXPECT_TRUE(r.overflow);
    // i64 MIN * -1 = 2^63 -> MIN.
    r = oracle::multiply_integer(ElementType::i64, 0x8000000000000000, ~std::uint64_t{0});
    EXPECT_EQ(r.exact, cpp_int(1) << 63);
    EXPECT_EQ(r.wrapped_bits, 0x8000000000000000u);
    EXPECT_TRUE(r.overflow);
    // i16 -256 * 128 = -32768 = MIN exactly: no overflow (0x8000).
    r = oracle::multiply_integer(ElementType::i16, 0xFF00, 0x0080);
    EXPECT_EQ(r.wrapped_bits, 0x8000u);
    EXPECT_FALSE(r.overflow);
}

// a / b in i32 with the given rounding, as a signed value; asserts the quotient is defined.
std::int64_t quotient(std::int32_t a, std::int32_t b, IntegerRounding r) {
    const auto bits = [](std::int32_t v) {
        return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v));
    };
    const auto out = oracle::divide_integer(ElementType::i32, bits(a), bits(b), r);
    EXPECT_FALSE(out.undefined);
    return static_cast<std::int64_t>(out.exact);
}

TEST(IntegerArithmetic, FloorAndTruncation) {
    const auto F = IntegerRounding::floor, T = IntegerRounding::truncate;
    // Python //: -7/2 = -3.5 -> -4; 7/-2 -> -4; -7/-2 = 3.5 -> 3.
    EXPECT_EQ(quotient(-7, 2, F), -4);
    EXPECT_EQ(quotient(7, -2, F), -4);
    EXPECT_EQ(quotient(-7, -2, F), 3);
    EXPECT_EQ(quotient(-6, 3, F), -2);  // exact: no adjustment
    // Truncation toward zero: -3.5 -> -3.
    EXPECT_EQ(quotient(-7, 2, T), -3);
    EXPECT_EQ(quotient(7, -2, T), -3);
    EXPECT_EQ(quotient(-7, -2, T), 3);
    // OpenVINO's Divide test: [-10,-10,10,10] / [-3,3,-3,3].
    const std::int32_t a[] = {-10, -10, 10, 10}, b[] = {-3, 3, -3, 3};
    const std::int64_t floor_q[] = {3, -4, -4, 3}, trunc_q[] = {3, -3, -3, 3};
    // ONNX's truncation example: [-3,3,-3,3] / [2,2,-2,-2] = [-1,1,1,-1].
    const std::int32_t c[] = {-3, 3, -3, 3}, d[] = {2, 2, -2, -2};
    const std::int64_t onnx_q[] = {-1, 1, 1, -1};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(quotient(a[i], b[i], F), floor_q[i]);
        EXPECT_EQ(quotient(a[i], b[i], T), trunc_q[i]);
        EXPECT_EQ(quotient(c[i], d[i], T), onnx_q[i]);
    }
}

TEST(IntegerArithmetic, UnsignedFloorEqualsTruncation) {
    for (auto r : {IntegerRounding::floor, IntegerRounding::truncate}) {
        const auto out = oracle::divide_integer(ElementType::u8, 255, 2, r);  // 127.5 -> 127
        EXPECT_EQ(out.wrapped_bits, 127u);
        EXPECT_FALSE(out.overflow);
    }
}

TEST(IntegerArithmetic, MinDividedByMinusOneWraps) {
    for (auto r : {IntegerRounding::floor, IntegerRounding::truncate}) {
        // i32 MIN / -1 = 2^31 -> wraps to MIN (0x80000000).
        auto out = oracle::divide_integer(ElementType::i32, 0x80000000, 0xFFFFFFFF, r);
        EXPECT_EQ(out.exact, cpp_int(1) << 31);
        EXPECT_EQ(out.wrapped_bits, 0x80000000u);
        EXPECT_TRUE(out.overflow);
        EXPECT_FALSE(out.undefined);
        // i8 -128 / -1 = 128 -> -128; i64 likewise.
        out = oracle::divide_integer(ElementType::i8, 0x80, 0xFF, r);
        EXPECT_EQ(out.wrapped_bits, 0x80u);
        EXPECT_TRUE(out.overflow);
        out = oracle::divide_integer(ElementType::i64, 0x8000000000000000, ~std::uint64_t{0}, r);
        EXPECT_EQ(out.wrapped_bits, 0x8000000000000000u);
        EXPECT_TRUE(out.overflow);
    }
    // i8 -128 / 1 = -128: no overflow.
    const auto ok = oracle::divide_integer(ElementType::i8, 0x80, 0x01, IntegerRounding::floor);
    EXPECT_EQ(ok.exact, -128);
    EXPECT_FALSE(ok.overflow);
}

TEST(IntegerArithmetic, DivisionByZeroIsUndefined) {
    for (auto t : {ElementType::i8, ElementType::u8, ElementType::i64, ElementType::u64}) {
        for (std::uint64_t a : {0u, 1u, 0x7Fu}) {
            const auto out = oracle::divide_integer(t, a, 0, IntegerRounding::floor);
            EXPECT_TRUE(out.undefined);
            EXPECT_EQ(out.wrapped_bits, 0u);
        }
    }
}

TEST(IntegerArithmetic, SignedOperandsAreTwosComplement) {
    EXPECT_EQ(oracle::integer_value(ElementType::i8, 0xFF), -1);
    EXPECT_EQ(oracle::integer_value(ElementType::u8, 0xFF), 255);
    EXPECT_EQ(oracle::integer_value(ElementType::i16, 0x8000), -32768);
    EXPECT_EQ(oracle::integer_value(ElementType::i64, 0x8000000000000000), -(cpp_int(1) << 63));
}

}  // namespace
