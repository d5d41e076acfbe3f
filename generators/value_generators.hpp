// Element values per dtype: edge values (specials, extremes, overflow and underflow thresholds)
// mixed with uniform random bit patterns, and whole tensors built from them. RapidCheck's own
// float generator never yields NaN, inf, -0 or subnormals, so every value here is raw bits.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.hpp"

namespace generators {

// An IEEE-style binary format by its own parameters: f16 (5, 10), bf16 (8, 7), f32, f64.
struct FloatFormat {
    int exponent_bits;
    int mantissa_bits;  // stored fraction bits
};

// nullopt for integer and boolean types.
std::optional<FloatFormat> float_format(core::ElementType t);

// Bit width of one element (8 for boolean).
int bit_width(core::ElementType t);

// True when `bits` encode a NaN of floating type t (false for every integer type).
bool is_nan_bits(core::ElementType t, std::uint64_t bits);

// The edge values of t as raw bits (zero-extended to 64 bits), +0 / 0 first so that
// shrinking ends on zero. Boolean: 0 and 1.
std::vector<std::uint64_t> edge_bits(core::ElementType t);

// One element of t as raw bits: mostly edge values, else small or moderate values, else
// uniform random bit patterns.
rc::Gen<std::uint64_t> element_bits(core::ElementType t);

// A tensor of the given type and shape whose element i holds bits[i] (truncated to the width).
core::Tensor tensor_from_bits(core::ElementType t, const core::Shape& shape,
                              const std::vector<std::uint64_t>& bits);

// A non-empty pool of element values (up to 100) for tensors of type t.
rc::Gen<std::vector<std::uint64_t>> element_pool(core::ElementType t);

// A tensor of the given type and shape whose element i is pool[i % pool.size()]. Generating the
// pool before the shape lets RapidCheck shrink the shape without losing the failing values
// (shrinking a pool drops elements, moving the culprits to the front).
core::Tensor tensor_from_pool(core::ElementType t, const core::Shape& shape,
                              const std::vector<std::uint64_t>& pool);

// Element i of an integer tensor as an exact integer (sign-extended for signed types).
__int128 integer_value(const core::Tensor& t, std::int64_t i);

}  // namespace generators
