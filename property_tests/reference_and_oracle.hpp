// Runs one generated valid call through reference::run and oracle::run and hands each output,
// named, to a per-element check: for properties that both implementations must satisfy.
#pragma once

#include <rapidcheck.h>

#include "generators/property_case.hpp"
#include "oracle/run.hpp"
#include "property_tests/output_difference.hpp"
#include "reference/run.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;

template <class CheckOutput>
void check_reference_and_oracle(const Combination& combination, CheckOutput check_output) {
    const Case c = *valid_case(combination);
    const auto layout = layout_of(c);
    RC_ASSERT(layout.has_value());
    const core::OpVersion& op = *combination.op;
    check_output(c, *layout, NamedOutput{"reference", reference::run(op, c.attributes, c.a, c.b)});
    check_output(c, *layout, NamedOutput{"oracle", oracle::run(op, c.attributes, c.a, c.b)});
}

}  // namespace property_tests
