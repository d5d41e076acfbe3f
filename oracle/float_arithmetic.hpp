// Exact floating-point multiply and divide: the exact product or quotient of the decoded
// operands, rounded once to nearest-even into the operands' format (IEEE 754-2019 5.4.1).
#pragma once

#include <cstdint>

#include "core/element_type.hpp"
#include "oracle/float_format.hpp"

namespace oracle {

// Operands and results are encodings of type t (f16, bf16, f32 or f64), zero-extended.
// A NaN result is always the format's positive quiet NaN (any NaN matches any NaN).
std::uint64_t multiply_float(const FloatFormat& format, std::uint64_t a_bits, std::uint64_t b_bits);
std::uint64_t divide_float(const FloatFormat& format, std::uint64_t a_bits, std::uint64_t b_bits);
std::uint64_t multiply_float(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits);
std::uint64_t divide_float(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits);

}  // namespace oracle
