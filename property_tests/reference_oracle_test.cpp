// Property a: for every (op version, dtype, rule) triple, reference::run and oracle::run agree
// bit for bit (any NaN matches any NaN, signed zeros must match), and both mark exactly the
// elements with a zero integer divisor as undefined.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "oracle/run.hpp"
#include "property_tests/output_difference.hpp"
#include "property_tests/property_check.hpp"
#include "reference/run.hpp"

namespace property_tests {
namespace {

class ReferenceOracle : public ::testing::TestWithParam<Combination> {};

void check_agreement(const Combination& combination) {
    const Case c = *valid_case(combination);
    const core::OpVersion& op = *combination.op;
    const core::OpOutput reference = reference::run(op, c.attributes, c.a, c.b);
    const core::OpOutput oracle = oracle::run(op, c.attributes, c.a, c.b);
    const NamedOutput ref{"reference", reference}, ora{"oracle", oracle};
    if (auto d = undefined_difference(c, ora); !d.empty()) RC_FAIL(d);
    if (auto d = output_difference(c, ora, ref); !d.empty()) RC_FAIL(d);
}

TEST_P(ReferenceOracle, BitExact) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] { check_agreement(combination); });
    EXPECT_TRUE(holds);
}

INSTANTIATE_TEST_SUITE_P(op, ReferenceOracle, ::testing::ValuesIn(all_combinations()),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
