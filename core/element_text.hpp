// Elements as text: how inline inputs, case tables and reports spell values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/tensor.hpp"

namespace core {

// Parses `text` into element i of t. Integers: decimal or 0x-hex with optional sign, and the
// names min and max. Floats: decimal or hex-float (0x1p-24), inf, -inf, nan, -nan, -0, and the
// names max, lowest, min_normal, denorm_min (each may carry a leading '-').
// Returns false when the value is not exactly representable and was rounded to nearest even
// (decimal text for f64 is taken as exact: there is no wider type to check it against).
// Throws Error(input) naming the text when it is not a number of that type or is out of range.
bool parse_element(Tensor& t, std::int64_t i, std::string_view text);

// Shortest text that reads back to the same bits (for NaN: "nan" or "-nan");
// integers in decimal, floats as "inf", "-inf", "-0", or the shortest round-trip decimal.
std::string format_element(const Tensor& t, std::int64_t i);

// The element widened to double (exact for every type but i64/u64 beyond 2^53).
double element_as_double(const Tensor& t, std::int64_t i);

// Raw bits of element i, zero-extended (floats: their IEEE encoding).
std::uint64_t element_bits(const Tensor& t, std::int64_t i);

}  // namespace core
