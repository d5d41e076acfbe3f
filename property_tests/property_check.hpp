// Runs a RapidCheck property inside the current gtest test and turns its result into a gtest
// assertion whose failure message carries the shrunk counterexample, the seed, and the commands
// that replay the test (same seed and budget) or just the shrunk case (RapidCheck's reproduce).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <utility>

namespace property_tests {

// "Suite.Name" of the running gtest test: the RapidCheck test id and the --gtest_filter value.
std::string current_test_id();

// The random stream of one test: RapidCheck seeds every property with the same RC_PARAMS seed,
// which would give every combination the very same cases; mixing in the test id keeps runs
// reproducible from the one seed while each test explores its own cases.
std::uint64_t test_seed(std::uint64_t seed, const std::string& id);

// Checks the property under RC_PARAMS (seed mixed with the test id, reproduce honoured).
::testing::AssertionResult run_property(const rc::detail::Property& property,
                                        const std::string& id);

// Usage: const auto holds = check_property([&] { ... RC_ASSERT(...); }); EXPECT_TRUE(holds);
template <class Testable>
::testing::AssertionResult check_property(Testable&& testable) {
    return run_property(rc::detail::toProperty(std::forward<Testable>(testable)),
                        current_test_id());
}

}  // namespace property_tests
