// A floating-point encoding decoded into an exact value: (-1)^negative * significand * 2^exponent.
#pragma once

#include <cstdint>

#include <boost/multiprecision/cpp_int.hpp>

#include "oracle/float_format.hpp"

namespace oracle {

using boost::multiprecision::cpp_int;

enum class FloatClass { zero, finite, infinite, nan };

struct ExactValue {
    FloatClass kind = FloatClass::zero;
    bool negative = false;
    std::uint64_t significand = 0;  // integer significand, implicit bit included (finite only)
    long exponent = 0;              // value = significand * 2^exponent (finite only)
};

// Splits `bits` (the format's encoding, zero-extended) into sign, biased exponent and fraction
// (IEEE 754-2019 section 3.4): biased exponent 0 is zero or subnormal with exponent emin,
// all ones is infinity (fraction 0) or NaN, anything else is normal with the implicit bit set.
ExactValue decode(const FloatFormat& format, std::uint64_t bits);

}  // namespace oracle
