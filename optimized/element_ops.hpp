// One output element of each operation, for every storage type: the scalar semantics of
// reference/multiply.hpp and reference/divide.hpp, rewritten branch-free so loops vectorize.
// Internal linkage: each instruction-set TU compiles its own copy (see float16_convert.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/half_float.hpp"
#include "optimized/float16_convert.hpp"
#include "optimized/integer_division.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

template <class T>
inline constexpr bool kIsInteger = std::is_integral_v<T>;

// Whether divisor b makes this element undefined (integer division by zero).
template <Operation Op, class T>
bool undefined_divisor(T b) {
    if constexpr (kIsInteger<T> && Op != Operation::multiply) {
        return b == T(0);
    } else {
        return false;
    }
}

// Integers: wrap modulo 2^N by multiplying in an unsigned type at least as wide as int.
template <Operation Op, class T>
requires kIsInteger<T> T compute(T a, T b) {
    if constexpr (Op == Operation::multiply) {
        using Wide =
            std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
        return static_cast<T>(static_cast<Wide>(static_cast<Wide>(a) * static_cast<Wide>(b)));
    } else {
        return divide_integer<Op == Operation::divide_floor>(a, b);
    }
}

// f32 and f64: one IEEE operation (the build forbids contraction into FMA).
template <Operation Op, class T>
requires std::is_floating_point_v<T> T compute(T a, T b) {
    if constexpr (Op == Operation::multiply) {
        return a * b;
    } else {
        return a / b;
    }
}

// f16 and bf16: widen exactly, one f32 operation, round once (docs/SEMANTICS.md section 2.5:
// exact products, innocuous double rounding of quotients since 24 >= 2p + 2).
template <Operation Op>
float compute_f32(float a, float b) {
    return compute < Op == Operation::multiply ? Op : Operation::divide_truncate > (a, b);
}
template <Operation Op, class T>
requires std::is_same_v<T, core::Half> T compute(T a, T b) {
    return T{f32_to_f16(compute_f32<Op>(f16_to_f32(a.bits), f16_to_f32(b.bits)))};
}
template <Operation Op, class T>
requires std::is_same_v<T, core::BFloat16> T compute(T a, T b) {
    return T{f32_to_bf16(compute_f32<Op>(bf16_to_f32(a.bits), bf16_to_f32(b.bits)))};
}

}  // namespace
}  // namespace optimized
