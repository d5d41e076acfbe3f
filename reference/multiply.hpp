// Multiply, one element at a time, as the specs state it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/half_float.hpp"

namespace reference {

// Integers: the exact product reduced modulo 2^N (two's-complement wrap). The multiplication
// runs in an unsigned type at least as wide as int, so no signed overflow can occur.
template <class T>
requires std::is_integral_v<T> T multiply(T a, T b) {
    using Wide =
        std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<Wide>(static_cast<Wide>(a) * static_cast<Wide>(b)));
}

// f32 and f64: IEEE 754 multiplication, rounded to nearest even.
inline float multiply(float a, float b) {
    return a * b;
}
inline double multiply(double a, double b) {
    return a * b;
}

// f16 and bf16: the product of two 11-bit (or 8-bit) significands is exact in f32, so rounding
// that product once into the 16-bit format gives the correctly rounded result.
inline core::Half multiply(core::Half a, core::Half b) {
    return core::half_from_float(core::to_float(a) * core::to_float(b));
}
inline core::BFloat16 multiply(core::BFloat16 a, core::BFloat16 b) {
    return core::bfloat16_from_float(core::to_float(a) * core::to_float(b));
}

}  // namespace reference
