// Property e: multiplication commutes under the symmetric broadcast rules (numpy, and none):
// run(A, B) equals run(B, A) bit for bit, NaN matching any NaN, for reference::run and
// oracle::run alike.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <utility>

#include "oracle/run.hpp"
#include "property_tests/output_difference.hpp"
#include "property_tests/property_check.hpp"
#include "reference/run.hpp"

namespace property_tests {
namespace {

class MultiplyCommutes : public ::testing::TestWithParam<Combination> {};

template <class Run>
void check_commutes(const char* who, Run&& run, const Case& c) {
    Case swapped = c;
    std::swap(swapped.a, swapped.b);
    std::swap(swapped.shapes.a, swapped.shapes.b);
    const core::OpOutput ab = run(c.a, c.b);
    const core::OpOutput ba = run(swapped.a, swapped.b);
    const std::string d = output_difference(c, {"A*B", ab}, {"B*A", ba});
    if (!d.empty()) RC_FAIL(std::string(who) + ": " + d);
}

TEST_P(MultiplyCommutes, SwappedOperands) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] {
        const Case c = *valid_case(combination);
        const core::OpVersion& op = *combination.op;
        check_commutes(
            "reference::run",
            [&](const core::Tensor& x, const core::Tensor& y) {
                return reference::run(op, c.attributes, x, y);
            },
            c);
        check_commutes(
            "oracle::run",
            [&](const core::Tensor& x, const core::Tensor& y) {
                return oracle::run(op, c.attributes, x, y);
            },
            c);
    });
    EXPECT_TRUE(holds);
}

bool symmetric(core::BroadcastRule rule) {
    return rule == core::BroadcastRule::numpy || rule == core::BroadcastRule::none;
}

INSTANTIATE_TEST_SUITE_P(op, MultiplyCommutes,
                         ::testing::ValuesIn(combinations_where([](const Combination& c) {
                             return !c.is_division() && symmetric(c.rule);
                         })),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
