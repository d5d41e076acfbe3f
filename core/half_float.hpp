// f16 (IEEE binary16) and bf16 (bfloat16) as storage types with bit-exact conversions.
#pragma once

#include <cstdint>

namespace core {

struct Half {
    std::uint16_t bits = 0;
    friend bool operator==(Half, Half) = default;
};

struct BFloat16 {
    std::uint16_t bits = 0;
    friend bool operator==(BFloat16, BFloat16) = default;
};

// Widening is exact: every f16 and bf16 value is an f32 value.
float to_float(Half h);
float to_float(BFloat16 h);

// Narrowing rounds to nearest, ties to even, straight from the source value (no double
// rounding through f32): subnormals, overflow to ±inf, NaN stays NaN (quiet), zero keeps its sign.
Half half_from_double(double x);
Half half_from_float(float x);
BFloat16 bfloat16_from_double(double x);
BFloat16 bfloat16_from_float(float x);

}  // namespace core
