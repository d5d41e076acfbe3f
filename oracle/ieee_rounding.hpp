// Explicit round-to-nearest, ties-to-even (IEEE 754-2019 section 4.3.1) of an exact value into a
// binary format, written bit by bit: gradual underflow, overflow to ±inf, signed zero.
#pragma once

#include <cstdint>

#include <boost/multiprecision/cpp_int.hpp>

#include "core/element_type.hpp"
#include "oracle/float_format.hpp"

namespace oracle {

using boost::multiprecision::cpp_int;

// Encoding of (-1)^negative * significand * 2^exponent rounded into `format`; significand >= 0.
// A zero significand gives a zero of the given sign.
std::uint64_t round_to_format(const FloatFormat& format, bool negative, const cpp_int& significand,
                              long exponent);
std::uint64_t round_to_format(core::ElementType t, bool negative, const cpp_int& significand,
                              long exponent);

// Encoding of (-1)^negative * (numerator / denominator) * 2^exponent rounded into `format`;
// numerator >= 0, denominator > 0.
std::uint64_t round_rational_to_format(const FloatFormat& format, bool negative,
                                       const cpp_int& numerator, const cpp_int& denominator,
                                       long exponent);
std::uint64_t round_rational_to_format(core::ElementType t, bool negative, const cpp_int& numerator,
                                       const cpp_int& denominator, long exponent);

// Encodings of ±0 and ±inf in `format`.
std::uint64_t signed_zero(const FloatFormat& format, bool negative);
std::uint64_t signed_infinity(const FloatFormat& format, bool negative);

}  // namespace oracle
