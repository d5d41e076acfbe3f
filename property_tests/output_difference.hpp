// Comparing two outputs of one case: same shape and type, same undefined elements, and every
// defined element equal bit for bit, except that any NaN matches any NaN (signed zeros count).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comparison/output_comparison.hpp"
#include "core/op_output.hpp"
#include "generators/broadcast_model.hpp"
#include "generators/property_case.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;

// The case's layout under the independent model; nullopt when its shapes are invalid.
std::optional<Layout> layout_of(const Case& c);

// "element 5 (A[2] = 3, B[1] = 0)": an output element with the inputs that produce it.
std::string describe_element(const Case& c, std::int64_t i);

// Output elements that must be undefined: integer division with a zero divisor, ascending.
std::vector<std::int64_t> expected_undefined(const Case& c);

struct NamedOutput {
    const char* name;  // "reference", "oracle", ...
    const core::OpOutput& output;
};

// Empty when the two agree; otherwise the first difference, naming both sides.
std::string output_difference(const Case& c, NamedOutput x, NamedOutput y);

// Empty when `out` marks exactly expected_undefined(c) as undefined.
std::string undefined_difference(const Case& c, NamedOutput out);

}  // namespace property_tests
