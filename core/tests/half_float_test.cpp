// f16 / bf16 conversions checked against an independent decoding of the bit patterns and against
// every rounding boundary of the four narrowing conversions.
#include "core/half_float.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace core {
namespace {

// Layout of a 16-bit binary format: 1 sign bit, exponent_bits, fraction_bits.
struct Layout {
    int exponent_bits;
    int fraction_bits;
    std::uint16_t inf_bits() const {
        return static_cast<std::uint16_t>(((1u << exponent_bits) - 1) << fraction_bits);
    }
    // The largest finite encoding is the one just below inf.
    std::uint16_t max_bits() const { return static_cast<std::uint16_t>(inf_bits() - 1); }
    std::uint16_t quiet_bit() const {
        return static_cast<std::uint16_t>(1u << (fraction_bits - 1));
    }
};
constexpr Layout kF16{5, 10};
constexpr Layout kBF16{8, 7};

// IEEE decoding written from the textbook formula, independent of the code under test:
// (-1)^s * 2^(E - bias) * (1 + F / 2^p) for normals, (-1)^s * 2^(1 - bias) * F / 2^p for
// subnormals.
double decode(std::uint16_t bits, Layout f) {
    const bool negative = (bits >> 15) != 0;
    const int exponent = (bits >> f.fraction_bits) & ((1 << f.exponent_bits) - 1);
    const int fraction = bits & ((1 << f.fraction_bits) - 1);
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    double magnitude;
    if (exponent == (1 << f.exponent_bits) - 1)
        magnitude = fraction == 0 ? std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        magnitude = std::ldexp(fraction, 1 - bias - f.fraction_bits);
    else
        magnitude =
            std::ldexp((1 << f.fraction_bits) + fraction, exponent - bias - f.fraction_bits);
    return std::copysign(magnitude, negative ? -1.0 : 1.0);
}

// The value the encoding after max would have if the exponent range went on (65536, 2^128).
double virtual_after_max(Layout f) {
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    return std::ldexp(1.0, bias + 1);
}

std::uint32_t float_bits(float x) {
    return std::bit_cast<std::uint32_t>(x);
}

bool is_quiet_nan(std::uint16_t bits, Layout f) {
    const std::uint16_t magnitude = bits & 0x7FFF;
    return magnitude > f.inf_bits() && (magnitude & f.quiet_bit()) != 0;
}

// The four narrowing conversions, as bit patterns, for either layout.
std::uint16_t narrow_float(float x, Layout f) {
    return f.exponent_bits == kF16.exponent_bits ? half_from_float(x).bits
                                                 : bfloat16_from_float(x).bits;
}
std::uint16_t narrow_double(double x, Layout f) {
    return f.exponent_bits == kF16.exponent_bits ? half_from_double(x).bits
                                                 : bfloat16_from_double(x).bits;
}
float widen(std::uint16_t bits, Layout f) {
    return f.exponent_bits == kF16.exponent_bits ? to_float(Half{bits}) : to_float(BFloat16{bits});
}

// Every pattern widens exactly (NaN to a NaN of the same sign) and narrows back to itself.
void check_all_patterns(Layout f) {
    for (std::uint32_t p = 0; p <= 0xFFFF; ++p) {
        const auto bits = static_cast<std::uint16_t>(p);
        SCOPED_TRACE(::testing::Message() << "pattern 0x" << std::hex << p);
        const double expected = decode(bits, f);
        const float got = widen(bits, f);
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got));
            ASSERT_EQ(std::signbit(got), (bits >> 15) != 0);
            continue;
        }
        ASSERT_EQ(float_bits(got), float_bits(static_cast<float>(expected)));
        ASSERT_EQ(narrow_float(static_cast<float>(expected), f), bits);
        ASSERT_EQ(narrow_double(expected, f), bits);
    }
}

TEST(HalfFloat, EveryF16PatternWidensExactlyAndRoundTrips) {
    check_all_patterns(kF16);
}
TEST(HalfFloat, EveryBF16PatternWidensExactlyAndRoundTrips) {
    check_all_patterns(kBF16);
}

// Expected bits for a value between lo and hi, given the sign of the source.
std::uint16_t with_sign(std::uint16_t magnitude_bits, bool negative) {
    return static_cast<std::uint16_t>(magnitude_bits | (negative ? 0x8000 : 0));
}

// For neighbours lo < hi: the midpoint goes to the even encoding, the nearest source values
// just below and above it go to lo and hi. Source type S is float or double.
template <class S>
void check_boundary(std::uint16_t lo, Layout f, bool negative) {
    const std::uint16_t hi = static_cast<std::uint16_t>(lo + 1);
    const double hi_value = lo == f.max_bits() ? virtual_after_max(f) : decode(hi, f);
    const double mid_value = (decode(lo, f) + hi_value) / 2;  // exact: one more bit than f has
    const S sign = negative ? S{-1} : S{1};
    const S mid = sign * static_cast<S>(mid_value);
    ASSERT_EQ(static_cast<double>(mid), negative ? -mid_value : mid_value) << "midpoint inexact";
    const S toward_zero = std::nextafter(mid, S{0});
    const S away = std::nextafter(mid, sign * std::numeric_limits<S>::infinity());
    const std::uint16_t even = (lo & 1) == 0 ? lo : hi;
    auto narrow = [&](S x) {
        if constexpr (sizeof(S) == sizeof(float))
            return narrow_float(x, f);
        else
            return narrow_double(x, f);
    };
    SCOPED_TRACE(::testing::Message()
                 << "lo 0x" << std::hex << lo << (negative ? " negative" : ""));
    ASSERT_EQ(narrow(mid), with_sign(even, negative));
    ASSERT_EQ(narrow(toward_zero), with_sign(lo, negative));
    ASSERT_EQ(narrow(away), with_sign(hi, negative));
}

// All neighbour pairs from (0, smallest subnormal) up to (max, overflow), both signs.
template <class S>
void check_all_boundaries(Layout f) {
    for (std::uint32_t lo = 0; lo <= f.max_bits(); ++lo)
        for (bool negative : {false, true})
            check_boundary<S>(static_cast<std::uint16_t>(lo), f, negative);
}

TEST(HalfFloat, F32ToF16RoundsToNearestEvenAtEveryBoundary) {
    check_all_boundaries<float>(kF16);
}
TEST(HalfFloat, F32ToBF16RoundsToNearestEvenAtEveryBoundary) {
    check_all_boundaries<float>(kBF16);
}
TEST(HalfFloat, F64ToF16RoundsToNearestEvenAtEveryBoundary) {
    check_all_boundaries<double>(kF16);
}
TEST(HalfFloat, F64ToBF16RoundsToNearestEvenAtEveryBoundary) {
    check_all_boundaries<double>(kBF16);
}

// NaN inputs of either sign, quiet or signaling, with payload high or only in the lowest bit:
// a naive truncation of a low-payload NaN would produce inf.
TEST(HalfFloat, NaNStaysQuietNaNWithItsSign) {
    for (std::uint64_t pattern : {0x7FF8000000000000ull, 0x7FF0000000000001ull,
                                  0x7FF4000000000000ull, 0x7FFFFFFFFFFFFFFFull}) {
        for (std::uint64_t sign : {0ull, 1ull << 63}) {
            const double x = std::bit_cast<double>(pattern | sign);
            for (Layout f : {kF16, kBF16}) {
                const std::uint16_t got = narrow_double(x, f);
                EXPECT_TRUE(is_quiet_nan(got, f)) << std::hex << pattern << " -> " << got;
                EXPECT_EQ(got >> 15, sign >> 63);
            }
        }
    }
    for (std::uint32_t pattern : {0x7FC00000u, 0x7F800001u, 0x7FA00000u, 0x7FFFFFFFu}) {
        for (std::uint32_t sign : {0u, 1u << 31}) {
            const float x = std::bit_cast<float>(pattern | sign);
            for (Layout f : {kF16, kBF16}) {
                const std::uint16_t got = narrow_float(x, f);
                EXPECT_TRUE(is_quiet_nan(got, f)) << std::hex << pattern << " -> " << got;
                EXPECT_EQ(got >> 15, sign >> 31);
            }
        }
    }
}

TEST(HalfFloat, InfinitiesAndZerosKeepTheirSign) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    for (Layout f : {kF16, kBF16}) {
        EXPECT_EQ(narrow_double(kInf, f), f.inf_bits());
        EXPECT_EQ(narrow_double(-kInf, f), f.inf_bits() | 0x8000);
        EXPECT_EQ(narrow_float(static_cast<float>(kInf), f), f.inf_bits());
        EXPECT_EQ(narrow_float(static_cast<float>(-kInf), f), f.inf_bits() | 0x8000);
        EXPECT_EQ(narrow_double(0.0, f), 0x0000);
        EXPECT_EQ(narrow_double(-0.0, f), 0x8000);
        EXPECT_EQ(narrow_float(0.0f, f), 0x0000);
        EXPECT_EQ(narrow_float(-0.0f, f), 0x8000);
    }
}

// Below half the smallest subnormal (2^-25 for f16, 2^-134 for bf16) the result is a signed zero;
// far beyond max it is a signed infinity.
TEST(HalfFloat, UnderflowToSignedZeroAndOverflowToSignedInf) {
    const double denorm_min = std::numeric_limits<double>::denorm_min();
    const float float_denorm_min = std::numeric_limits<float>::denorm_min();
    for (Layout f : {kF16, kBF16}) {
        const double half_smallest = decode(1, f) / 2;
        for (double x :
             {std::nextafter(half_smallest, 0.0), half_smallest / 3, 1e-300, denorm_min}) {
            EXPECT_EQ(narrow_double(x, f), 0x0000) << x;
            EXPECT_EQ(narrow_double(-x, f), 0x8000) << x;
        }
        EXPECT_EQ(narrow_float(float_denorm_min, f), 0x0000);
        EXPECT_EQ(narrow_float(-float_denorm_min, f), 0x8000);
        for (double x : {1e300, std::numeric_limits<double>::max(), std::ldexp(1.0, 128)}) {
            EXPECT_EQ(narrow_double(x, f), f.inf_bits()) << x;
            EXPECT_EQ(narrow_double(-x, f), f.inf_bits() | 0x8000) << x;
        }
        const float float_max = std::numeric_limits<float>::max();
        EXPECT_EQ(narrow_float(float_max, f), f.inf_bits());
        EXPECT_EQ(narrow_float(-float_max, f), f.inf_bits() | 0x8000);
    }
}

// A few values known by heart, as a sanity check of the decoding helper itself.
TEST(HalfFloat, DecodingHelperMatchesKnownValues) {
    EXPECT_EQ(decode(0x3C00, kF16), 1.0);
    EXPECT_EQ(decode(0x7BFF, kF16), 65504.0);
    EXPECT_EQ(decode(0x0001, kF16), 0x1p-24);
    EXPECT_EQ(decode(0x0400, kF16), 0x1p-14);
    EXPECT_EQ(decode(0xC000, kF16), -2.0);
    EXPECT_EQ(decode(0x3F80, kBF16), 1.0);
    EXPECT_EQ(decode(0x7F7F, kBF16), 0x1.FEp127);
    EXPECT_EQ(decode(0x0001, kBF16), 0x1p-133);
    EXPECT_EQ(decode(0x0080, kBF16), 0x1p-126);
    EXPECT_EQ(virtual_after_max(kF16), 65536.0);
    EXPECT_EQ(virtual_after_max(kBF16), 0x1p128);
}

}  // namespace
}  // namespace core
