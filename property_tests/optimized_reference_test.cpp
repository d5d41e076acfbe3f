// Property: for every (op version, dtype, rule) triple, optimized::run gives the reference's
// bits (any NaN matches any NaN) and the same undefined elements, with 1 and with 2 threads.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "optimized/run.hpp"
#include "property_tests/output_difference.hpp"
#include "property_tests/property_check.hpp"
#include "reference/run.hpp"

namespace property_tests {
namespace {

class OptimizedReference : public ::testing::TestWithParam<Combination> {};

void check_agreement(const Combination& combination) {
    const Case c = *valid_case(combination);
    const core::OpVersion& op = *combination.op;
    const core::OpOutput reference = reference::run(op, c.attributes, c.a, c.b);
    const NamedOutput ref{"reference", reference};
    for (int threads : {1, 2}) {
        const core::OpOutput optimized = optimized::run(op, c.attributes, c.a, c.b, threads);
        const NamedOutput opt{threads == 1 ? "optimized (1 thread)" : "optimized (2 threads)",
                              optimized};
        if (auto d = undefined_difference(c, opt); !d.empty()) RC_FAIL(d);
        if (auto d = output_difference(c, ref, opt); !d.empty()) RC_FAIL(d);
    }
}

TEST_P(OptimizedReference, BitExact) {
    const Combination combination = GetParam();
    EXPECT_TRUE(check_property([&] { check_agreement(combination); }));
}

INSTANTIATE_TEST_SUITE_P(op, OptimizedReference, ::testing::ValuesIn(all_combinations()),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
