// Elements as text: parsing with exact expected bits, rejection of bad text, and format -> parse
// round trips (exhaustive for f16/bf16, sampled for the wider types).
#include "core/element_text.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace core {
namespace {

using enum ElementType;

struct Parsed {
    std::uint64_t bits;
    bool exact;
};

Parsed parse(ElementType type, std::string_view text) {
    Tensor t = Tensor::zeros(type, {1});
    const bool exact = parse_element(t, 0, text);
    return {element_bits(t, 0), exact};
}

// Stores raw bits into a one-element tensor of `type`.
Tensor from_bits(ElementType type, std::uint64_t bits) {
    Tensor t = Tensor::zeros(type, {1});
    std::memcpy(t.bytes.data(), &bits, byte_size(type));  // little-endian host
    return t;
}

std::string format_bits(ElementType type, std::uint64_t bits) {
    return format_element(from_bits(type, bits), 0);
}

void expect_input_error(ElementType type, std::string_view text) {
    SCOPED_TRACE(std::string(name(type)) + " '" + std::string(text) + "'");
    try {
        parse(type, text);
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input) << e.what();
        EXPECT_NE(std::string(e.what()).find("'" + std::string(text) + "'"), std::string::npos)
            << e.what();
    }
}

struct Expected {
    ElementType type;
    std::string_view text;
    std::uint64_t bits;
};

void expect_exact(const Expected& e) {
    SCOPED_TRACE(std::string(name(e.type)) + " '" + std::string(e.text) + "'");
    const Parsed p = parse(e.type, e.text);
    EXPECT_EQ(p.bits, e.bits) << std::hex << p.bits;
    EXPECT_TRUE(p.exact);
}

// ---- integers ----

TEST(ElementText, IntegersDecimalHexAndNames) {
    const std::vector<Expected> cases = {
        {i8, "127", 0x7F},
        {i8, "-128", 0x80},
        {i8, "min", 0x80},
        {i8, "max", 0x7F},
        {i8, "0x7f", 0x7F},
        {i8, "-0x80", 0x80},
        {i8, "+5", 5},
        {i8, "-1", 0xFF},
        {i8, "-0", 0},
        {u8, "255", 0xFF},
        {u8, "0xFF", 0xFF},
        {u8, "min", 0},
        {u8, "max", 0xFF},
        {i16, "-32768", 0x8000},
        {i16, "32767", 0x7FFF},
        {i16, "min", 0x8000},
        {u16, "65535", 0xFFFF},
        {u16, "max", 0xFFFF},
        {i32, "-2147483648", 0x80000000},
        {i32, "max", 0x7FFFFFFF},
        {u32, "4294967295", 0xFFFFFFFF},
        {u32, "0xDEADBEEF", 0xDEADBEEF},
        {i64, "-9223372036854775808", 0x8000000000000000},
        {i64, "min", 0x8000000000000000},
        {i64, "9223372036854775807", 0x7FFFFFFFFFFFFFFF},
        {i64, "-1", 0xFFFFFFFFFFFFFFFF},
        {u64, "18446744073709551615", 0xFFFFFFFFFFFFFFFF},
        {u64, "max", 0xFFFFFFFFFFFFFFFF},
        {u64, "0xffffffffffffffff", 0xFFFFFFFFFFFFFFFF},
    };
    for (const auto& c : cases)
        expect_exact(c);
}

TEST(ElementText, IntegersOutOfRangeAreInputErrors) {
    const std::vector<std::pair<ElementType, std::string_view>> cases = {
        {i8, "128"},
        {i8, "-129"},
        {i8, "0x80"},
        {u8, "-1"},
        {u8, "256"},
        {i16, "32768"},
        {i16, "-32769"},
        {u16, "65536"},
        {u16, "-1"},
        {i32, "2147483648"},
        {i32, "-2147483649"},
        {u32, "4294967296"},
        {u32, "-1"},
        {i64, "9223372036854775808"},
        {i64, "-9223372036854775809"},
        {u64, "18446744073709551616"},
        {u64, "-1"},
        {u64, "999999999999999999999999999"},
    };
    for (const auto& [type, text] : cases)
        expect_input_error(type, text);
}

TEST(ElementText, GarbageIsAnInputError) {
    for (ElementType t : {i8, u8, i16, u16, i32, u32, i64, u64})
        for (std::string_view text :
             {"", "abc", "1.5", "12a", "0x", "0xg", "--1", " 1", "1 ", "1e3", "nan", "-", "inf"})
            expect_input_error(t, text);
    for (ElementType t : {f16, bf16, f32, f64})
        for (std::string_view text :
             {"", "abc", "1.5.2", "0x", "1e", "inf5", "--1", "nanx", " 1", "1 ", "-", "+", "1,5",
              "0x1q3", "+-1", "-0x-1p0", "--inf", "-+1"})
            expect_input_error(t, text);
    for (std::string_view text : {"", "2", "yes", "TRUE ", "-1"})
        expect_input_error(boolean, text);
}

TEST(ElementText, BooleanTextAndFormat) {
    expect_exact({boolean, "true", 1});
    expect_exact({boolean, "1", 1});
    expect_exact({boolean, "false", 0});
    expect_exact({boolean, "0", 0});
    EXPECT_EQ(format_bits(boolean, 1), "true");
    EXPECT_EQ(format_bits(boolean, 0), "false");
}

TEST(ElementText, IntegerFormatIsPlainDecimal) {
    EXPECT_EQ(format_bits(i8, 0x80), "-128");
    EXPECT_EQ(format_bits(u8, 0xFF), "255");
    EXPECT_EQ(format_bits(i16, 0xFFFF), "-1");
    EXPECT_EQ(format_bits(i32, 0x80000000), "-2147483648");
    EXPECT_EQ(format_bits(u32, 0xFFFFFFFF), "4294967295");
    EXPECT_EQ(format_bits(i64, 0x8000000000000000), "-9223372036854775808");
    EXPECT_EQ(format_bits(u64, 0xFFFFFFFFFFFFFFFF), "18446744073709551615");
    EXPECT_EQ(format_bits(i32, 0), "0");
}

// Deterministic pseudo-random bit patterns (SplitMix64), so failures reproduce.
std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t mask_of(ElementType type) {
    return byte_size(type) == 8 ? ~0ull : (1ull << (8 * byte_size(type))) - 1;
}

// format -> parse gives back the same bits; NaN gives a NaN of the same sign.
void expect_round_trip(ElementType type, std::uint64_t bits, bool is_nan, std::uint64_t sign_bit) {
    const std::string text = format_bits(type, bits);
    const Parsed back = parse(type, text);
    if (is_nan) {
        ASSERT_EQ(text, (bits & sign_bit) ? "-nan" : "nan");
        ASSERT_TRUE(std::isnan(element_as_double(from_bits(type, back.bits), 0))) << text;
        ASSERT_EQ(back.bits & sign_bit, bits & sign_bit) << text;
    } else {
        ASSERT_EQ(back.bits, bits) << std::hex << bits << " -> '" << text << "'";
    }
}

TEST(ElementText, IntegerRoundTrips) {
    std::uint64_t state = 1;
    for (ElementType type : {i8, u8, i16, u16, i32, u32, i64, u64}) {
        SCOPED_TRACE(name(type));
        const std::uint64_t mask = mask_of(type);
        const std::vector<std::uint64_t> fixed = {0, 1, mask, mask >> 1, (mask >> 1) + 1};
        for (std::uint64_t bits : fixed)
            expect_round_trip(type, bits, false, 0);
        for (int k = 0; k < 2000; ++k)
            expect_round_trip(type, splitmix(state) & mask_of(type), false, 0);
    }
}

// ---- floats ----

TEST(ElementText, FloatSpecialsAndNames) {
    const std::vector<Expected> cases = {
        {f16, "0", 0x0000},
        {f16, "-0", 0x8000},
        {f16, "inf", 0x7C00},
        {f16, "-inf", 0xFC00},
        {f16, "max", 0x7BFF},
        {f16, "-max", 0xFBFF},
        {f16, "lowest", 0xFBFF},
        {f16, "min_normal", 0x0400},
        {f16, "denorm_min", 0x0001},
        {f16, "-denorm_min", 0x8001},
        {f16, "0x1p-24", 0x0001},
        {f16, "0x1p-14", 0x0400},
        {f16, "0x1.ffcp15", 0x7BFF},
        {f16, "65504", 0x7BFF},
        {f16, "1", 0x3C00},
        {f16, "-2", 0xC000},
        {f16, "0.5", 0x3800},
        {f16, "+1.5", 0x3E00},
        {bf16, "-0", 0x8000},
        {bf16, "inf", 0x7F80},
        {bf16, "-inf", 0xFF80},
        {bf16, "max", 0x7F7F},
        {bf16, "lowest", 0xFF7F},
        {bf16, "min_normal", 0x0080},
        {bf16, "denorm_min", 0x0001},
        {bf16, "0x1p-133", 0x0001},
        {bf16, "0x1.fep127", 0x7F7F},
        {bf16, "1", 0x3F80},
        {bf16, "-2", 0xC000},
        {bf16, "1.0078125", 0x3F81},
        {f32, "-0", 0x80000000},
        {f32, "inf", 0x7F800000},
        {f32, "-inf", 0xFF800000},
        {f32, "max", 0x7F7FFFFF},
        {f32, "lowest", 0xFF7FFFFF},
        {f32, "min_normal", 0x00800000},
        {f32, "denorm_min", 0x00000001},
        {f32, "0x1p-149", 0x00000001},
        {f32, "1", 0x3F800000},
        {f32, "-2.5", 0xC0200000},
        {f32, "0x1.fffffep127", 0x7F7FFFFF},
        {f64, "-0", 0x8000000000000000},
        {f64, "inf", 0x7FF0000000000000},
        {f64, "-inf", 0xFFF0000000000000},
        {f64, "max", 0x7FEFFFFFFFFFFFFF},
        {f64, "lowest", 0xFFEFFFFFFFFFFFFF},
        {f64, "min_normal", 0x0010000000000000},
        {f64, "denorm_min", 0x0000000000000001},
        {f64, "0x1p-1074", 0x0000000000000001},
        {f64, "1", 0x3FF0000000000000},
        {f64, "0x1.8p1", 0x4008000000000000},
    };
    for (const auto& c : cases)
        expect_exact(c);
}

// f32 and f64 parse decimal text directly into their type: the nearest value.
TEST(ElementText, WideFloatsRoundDecimalToNearest) {
    EXPECT_EQ(parse(f32, "0.1").bits, 0x3DCCCCCDu);
    EXPECT_EQ(parse(f64, "0.1").bits, 0x3FB999999999999Aull);
    EXPECT_EQ(parse(f32, "1e-45").bits, 0x00000001u);  // nearest is denorm_min
    EXPECT_EQ(parse(f32, "1e39").bits, 0x7F800000u);
    EXPECT_EQ(parse(f32, "-1e39").bits, 0xFF800000u);
    EXPECT_EQ(parse(f32, "1e-50").bits, 0x00000000u);
    EXPECT_EQ(parse(f32, "-1e-50").bits, 0x80000000u);
    EXPECT_EQ(parse(f64, "1e400").bits, 0x7FF0000000000000ull);
    EXPECT_EQ(parse(f64, "1e-400").bits, 0x0000000000000000ull);
}

// Hex text beyond the type's range overflows to inf and underflows to 0 like decimal text.
TEST(ElementText, HexFloatsOutOfRange) {
    EXPECT_EQ(parse(f32, "0x1p200").bits, 0x7F800000u);
    EXPECT_EQ(parse(f32, "-0x1p200").bits, 0xFF800000u);
    EXPECT_EQ(parse(f32, "0x1p-200").bits, 0x00000000u);
    EXPECT_EQ(parse(f64, "0x1p2000").bits, 0x7FF0000000000000ull);
    EXPECT_EQ(parse(f64, "-0x1p-2000").bits, 0x8000000000000000ull);
    const Parsed f16_huge = parse(f16, "0x1p2000");
    EXPECT_EQ(f16_huge.bits, 0x7C00u);
    EXPECT_FALSE(f16_huge.exact);
    EXPECT_EQ(parse(bf16, "-0x1p2000").bits, 0xFF80u);
}

TEST(ElementText, NaNTextKeepsItsSign) {
    for (ElementType type : {f16, bf16, f32, f64}) {
        SCOPED_TRACE(name(type));
        const std::uint64_t sign_bit = 1ull << (8 * byte_size(type) - 1);
        for (std::string_view text : {"nan", "-nan"}) {
            const Parsed p = parse(type, text);
            EXPECT_TRUE(std::isnan(element_as_double(from_bits(type, p.bits), 0)));
            EXPECT_EQ((p.bits & sign_bit) != 0, text[0] == '-');
            EXPECT_TRUE(p.exact);
            EXPECT_EQ(format_bits(type, p.bits), text);
        }
    }
}

struct Rounded {
    ElementType type;
    std::string_view text;
    std::uint64_t bits;  // nearest, ties to even, worked out by hand
};

// f16/bf16 report when the text was not exactly representable.
TEST(ElementText, HalfTypesReportRounding) {
    const std::vector<Rounded> cases = {
        {f16, "0.1", 0x2E66},  // 0.1 = 1.6 * 2^-4; 0.6 * 1024 = 614.4 -> 614
        {f16, "-0.1", 0xAE66},
        {f16, "65519", 0x7BFF},  // below the midpoint 65520
        {f16, "65520", 0x7C00},  // midpoint max..65536: tie goes to the even one, inf
        {f16, "1e10", 0x7C00},
        {f16, "0x1p-25", 0x0000},  // half of denorm_min: tie to even
                                   // zero
        {f16, "-0x1p-26", 0x8000},
        {f16, "0x1.8p-25", 0x0001},  // 0.75 of denorm_min
        {f16, "0x1.002p0", 0x3C00},  // 1 + 2^-11, midpoint of 0x3C00 and 0x3C01: even
        {f16, "0x1.006p0", 0x3C02},  // 1 + 3 * 2^-11, midpoint of 0x3C01 and 0x3C02: even
        {f16, "1e-400", 0x0000},     // underflows even in f64
        {f16, "-1e400", 0xFC00},
        {bf16, "0.1", 0x3DCD},       // 0.6 * 128 = 76.8 -> 77
        {bf16, "0x1.01p0", 0x3F80},  // 1 + 2^-8: tie, even
        {bf16, "0x1.03p0", 0x3F82},  // 1 + 3 * 2^-8: tie, even
        {bf16, "0x1p-134", 0x0000},
        {bf16, "0x1p128", 0x7F80},
        {bf16, "1e-400", 0x0000},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(name(c.type)) + " '" + std::string(c.text) + "'");
        const Parsed p = parse(c.type, c.text);
        EXPECT_EQ(p.bits, c.bits) << std::hex << p.bits;
        EXPECT_FALSE(p.exact);
    }
}

// Text -> f16/bf16 must round once: text a hair off a 16-bit tie rounds to the side it lies on,
// even where going through the nearest f64 would land exactly on the tie.
TEST(ElementText, HalfTypesRoundTextOnceNotTwice) {
    const std::vector<Rounded> cases = {
        {f16, "1.00048828125000000001", 0x3C01},   // just above 1 + 2^-11
        {f16, "-1.00048828125000000001", 0xBC01},  //
        {f16, "1.00146484374999999999", 0x3C01},   // just below 1 + 3 * 2^-11
        {f16, "65519.99999999999999999", 0x7BFF},  // just below the overflow tie 65520
        {f16, "65520.00000000000000001", 0x7C00},  //
        {f16, "0x1.00200000000001p0", 0x3C01},     // 1 + 2^-11 + 2^-56
        {bf16, "1.00390625000000000001", 0x3F81},  // just above 1 + 2^-8
        {bf16, "1.01171874999999999999", 0x3F81},  // just below 1 + 3 * 2^-8
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(name(c.type)) + " '" + std::string(c.text) + "'");
        const Parsed p = parse(c.type, c.text);
        EXPECT_EQ(p.bits, c.bits) << std::hex << p.bits;
        EXPECT_FALSE(p.exact);
    }
}

TEST(ElementText, FloatFormatKnownValues) {
    EXPECT_EQ(format_bits(f16, 0x3C00), "1");
    EXPECT_EQ(format_bits(f16, 0x8000), "-0");
    EXPECT_EQ(format_bits(f16, 0x0000), "0");
    EXPECT_EQ(format_bits(f16, 0x7C00), "inf");
    EXPECT_EQ(format_bits(f16, 0xFC00), "-inf");
    EXPECT_EQ(format_bits(f16, 0x7BFF), "65504");
    EXPECT_EQ(format_bits(f16, 0xC100), "-2.5");
    EXPECT_EQ(format_bits(bf16, 0x3F80), "1");
    EXPECT_EQ(format_bits(bf16, 0x8000), "-0");
    EXPECT_EQ(format_bits(f32, 0x3DCCCCCD), "0.1");
    EXPECT_EQ(format_bits(f64, 0x3FB999999999999A), "0.1");
    EXPECT_EQ(format_bits(f64, 0x8000000000000000), "-0");
}

// Every f16 and bf16 pattern survives format -> parse.
TEST(ElementText, EveryHalfPatternRoundTrips) {
    for (ElementType type : {f16, bf16}) {
        SCOPED_TRACE(name(type));
        const std::uint16_t inf = type == f16 ? 0x7C00 : 0x7F80;
        for (std::uint32_t p = 0; p <= 0xFFFF; ++p)
            expect_round_trip(type, p, (p & 0x7FFF) > inf, 0x8000);
    }
}

// Specials, boundaries and random patterns of f32 / f64 survive format -> parse.
TEST(ElementText, WideFloatPatternsRoundTrip) {
    std::uint64_t state = 7;
    const std::vector<std::uint64_t> f32_fixed = {0x0,        0x80000000, 0x1,        0x007FFFFF,
                                                  0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                                                  0xFF800000, 0x3F800001, 0x4B7FFFFF};
    for (std::uint64_t b : f32_fixed)
        expect_round_trip(f32, b, false, 0);
    const std::vector<std::uint64_t> f64_fixed = {0x0,
                                                  0x8000000000000000,
                                                  0x1,
                                                  0x000FFFFFFFFFFFFF,
                                                  0x0010000000000000,
                                                  0x7FEFFFFFFFFFFFFF,
                                                  0x7FF0000000000000,
                                                  0xFFF0000000000000,
                                                  0x3FF0000000000001};
    for (std::uint64_t b : f64_fixed)
        expect_round_trip(f64, b, false, 0);
    for (int k = 0; k < 100000; ++k) {
        const std::uint64_t b32 = splitmix(state) & 0xFFFFFFFF;
        expect_round_trip(f32, b32, (b32 & 0x7FFFFFFF) > 0x7F800000, 0x80000000);
        const std::uint64_t b64 = splitmix(state);
        expect_round_trip(f64, b64, (b64 & ~(1ull << 63)) > 0x7FF0000000000000, 1ull << 63);
    }
}

TEST(ElementText, ParseWritesOnlyTheAddressedElement) {
    Tensor t = Tensor::zeros(i16, {3});
    parse_element(t, 1, "-2");
    EXPECT_EQ(element_bits(t, 0), 0u);
    EXPECT_EQ(element_bits(t, 1), 0xFFFEu);
    EXPECT_EQ(element_bits(t, 2), 0u);
    EXPECT_EQ(element_as_double(t, 1), -2.0);
}

}  // namespace
TEST(ElementText, F32ReportsRoundedText) {
    Tensor t = Tensor::zeros(ElementType::f32, {1});
    EXPECT_TRUE(parse_element(t, 0, "0.5"));
    EXPECT_TRUE(parse_element(t, 0, "0x1.000002p0"));   // 1 + 2^-23: the f32 neighbour of 1
    EXPECT_FALSE(parse_element(t, 0, "0x1.000001p0"));  // 1 + 2^-24: a tie, rounds to 1
    EXPECT_FALSE(parse_element(t, 0, "0.1"));           // 0.1 has no finite binary expansion
    EXPECT_FALSE(parse_element(t, 0, "1e39"));          // above f32 max: inf
}

}  // namespace core
