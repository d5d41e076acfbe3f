// The binary interchange formats the oracle rounds into, described by their parameters only
// (IEEE 754-2019 section 3.3: precision p, emax, emin = 1 - emax; bfloat16 shares binary32's
// exponent range with p = 8).
#pragma once

#include <cstdint>

#include "core/element_type.hpp"

namespace oracle {

struct FloatFormat {
    int precision;            // p: significand bits including the implicit leading bit
    int exponent_bits;        // w: width of the biased exponent field
    long emax;                // largest unbiased exponent of a finite value
    long emin;                // smallest unbiased exponent of a normal value (1 - emax)
    std::uint64_t quiet_nan;  // the NaN the oracle produces (sign 0, quiet bit set)

    int fraction_bits() const { return precision - 1; }
    int total_bits() const { return 1 + exponent_bits + fraction_bits(); }
    long bias() const { return emax; }
    std::uint64_t sign_mask() const { return std::uint64_t{1} << (total_bits() - 1); }
};

inline constexpr FloatFormat kBinary16{11, 5, 15, -14, 0x7E00};
inline constexpr FloatFormat kBFloat16{8, 8, 127, -126, 0x7FC0};
inline constexpr FloatFormat kBinary32{24, 8, 127, -126, 0x7FC00000};
inline constexpr FloatFormat kBinary64{53, 11, 1023, -1022, 0x7FF8000000000000};

// Throws std::logic_error for a type that is not f16, bf16, f32 or f64.
const FloatFormat& float_format(core::ElementType t);

}  // namespace oracle
