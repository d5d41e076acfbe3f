// Property d: integer division, checked in exact arithmetic (cpp_int) against the identities of
// docs/SEMANTICS.md section 2: a = q*b + r with |r| < |b|; floor: r == 0 or sign(r) == sign(b);
// truncation: r == 0 or sign(r) == sign(a). Exceptions: b == 0 is undefined (and must be marked
// so), MIN / -1 wraps to MIN. Checked for reference::run and oracle::run.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <boost/multiprecision/cpp_int.hpp>

#include "generators/value_generators.hpp"
#include "property_tests/output_difference.hpp"
#include "property_tests/property_check.hpp"
#include "property_tests/reference_and_oracle.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

using boost::multiprecision::cpp_int;

class IntegerDivision : public ::testing::TestWithParam<Combination> {};

// Every element of a 64-bit-or-narrower integer type fits in int64 or in uint64.
cpp_int exact(__int128 v) {
    return v < 0 ? cpp_int(static_cast<std::int64_t>(v)) : cpp_int(static_cast<std::uint64_t>(v));
}

struct Division {
    cpp_int a, b, q;
};

// Empty when q is the quotient a / b rounded as `rounding` says; else why not.
std::string identity_problem(const Division& d, core::IntegerRounding rounding, bool is_min) {
    if (is_min && d.b == -1)  // MIN / -1: the exact quotient -MIN does not fit; it wraps to MIN
        return d.q == d.a ? "" : "MIN / -1 must wrap to MIN";
    const cpp_int r = d.a - d.q * d.b;
    if (abs(r) >= abs(d.b)) return "remainder " + r.str() + " is not smaller than the divisor";
    const cpp_int& sign_source = rounding == core::IntegerRounding::floor ? d.b : d.a;
    if (r != 0 && (r < 0) != (sign_source < 0))
        return "remainder " + r.str() +
               (rounding == core::IntegerRounding::floor ? " must have the sign of b (floor)"
                                                         : " must have the sign of a (truncation)");
    return "";
}

void check_quotient(const Case& c, const Layout& layout, NamedOutput out) {
    if (auto d = undefined_difference(c, out); !d.empty()) RC_FAIL(d);
    const core::ElementType t = c.combination.type;
    const bool is_signed = core::info(t).kind == core::Kind::signed_integer;
    const __int128 min = is_signed ? -(__int128{1} << (bit_width(t) - 1)) : 0;
    for (std::int64_t i = 0; i < elements(layout.output); ++i) {
        const auto [ia, ib] = input_offsets(layout, i);
        const __int128 a = integer_value(c.a, ia), b = integer_value(c.b, ib);
        if (b == 0) continue;  // undefined: checked above
        const __int128 q = integer_value(out.output.value, i);
        const std::string problem =
            identity_problem({exact(a), exact(b), exact(q)}, c.combination.expected_rounding(),
                             is_signed && a == min);
        if (!problem.empty())
            RC_FAIL(describe_element(c, i) + ": " + out.name + " gives " + exact(q).str() + "; " +
                    problem);
    }
}

TEST_P(IntegerDivision, FloorAndTruncationIdentities) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds =
        check_property([&] { check_reference_and_oracle(combination, check_quotient); });
    EXPECT_TRUE(holds);
}

INSTANTIATE_TEST_SUITE_P(op, IntegerDivision,
                         ::testing::ValuesIn(combinations_where([](const Combination& c) {
                             return c.is_division() && c.is_integer();
                         })),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
