// Property f: an integer product equals the exact product reduced modulo 2^N (two's-complement
// wrap, docs/SEMANTICS.md section 2), computed here in unsigned __int128 from the exact
// operands, for reference::run and oracle::run.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <sstream>

#include "core/element_text.hpp"
#include "generators/value_generators.hpp"
#include "property_tests/output_difference.hpp"
#include "property_tests/property_check.hpp"
#include "property_tests/reference_and_oracle.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

class IntegerMultiply : public ::testing::TestWithParam<Combination> {};

// The exact product of two N-bit integers (|a|, |b| <= 2^64) reduced modulo 2^N. Unsigned
// arithmetic wraps modulo 2^128, which 2^N divides, so the low N bits are exact.
std::uint64_t wrapped_product(__int128 a, __int128 b, int n) {
    const unsigned __int128 p =
        static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b);
    const unsigned __int128 mask = (static_cast<unsigned __int128>(1) << n) - 1;
    return static_cast<std::uint64_t>(p & mask);
}

void check_product(const Case& c, const Layout& layout, NamedOutput out) {
    if (!out.output.undefined.empty()) RC_FAIL(std::string(out.name) + " marks elements undefined");
    const int n = bit_width(c.combination.type);
    for (std::int64_t i = 0; i < elements(layout.output); ++i) {
        const auto [ia, ib] = input_offsets(layout, i);
        const std::uint64_t expected =
            wrapped_product(integer_value(c.a, ia), integer_value(c.b, ib), n);
        const std::uint64_t got = core::element_bits(out.output.value, i);
        if (got != expected) {
            std::ostringstream os;
            os << describe_element(c, i) << ": " << out.name << " = "
               << core::format_element(out.output.value, i) << " (bits 0x" << std::hex << got
               << "), the product modulo 2^" << std::dec << n << " has bits 0x" << std::hex
               << expected;
            RC_FAIL(os.str());
        }
    }
}

TEST_P(IntegerMultiply, WrapsModulo2N) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds =
        check_property([&] { check_reference_and_oracle(combination, check_product); });
    EXPECT_TRUE(holds);
}

INSTANTIATE_TEST_SUITE_P(op, IntegerMultiply,
                         ::testing::ValuesIn(combinations_where([](const Combination& c) {
                             return !c.is_division() && c.is_integer();
                         })),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
