// Divide, one element at a time, as the specs state it.
#pragma once

#include <limits>
#include <type_traits>

#include "core/half_float.hpp"
#include "core/op_config.hpp"

namespace reference {

// A quotient, or "undefined" (integer division by zero: "The result of division by zero is
// undefined"). An undefined quotient carries value 0 and is never compared.
template <class T>
struct Quotient {
    T value{};
    bool undefined = false;
};

// Integers. Truncation rounds toward zero (ONNX Div, Divide-1 with m_pythondiv=false); floor
// rounds toward -inf (Divide-1 with m_pythondiv=true, Python's //). No hardware division runs
// on a zero divisor, nor on MIN / -1, whose exact quotient -MIN wraps to MIN.
template <class T>
requires std::is_integral_v<T> Quotient<T> divide(T a, T b, core::IntegerRounding rounding) {
    if (b == 0) return {T{0}, true};
    if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return {a, false};
    }
    T q = static_cast<T>(a / b);  // C++ division truncates toward zero
    const bool inexact = static_cast<T>(a % b) != 0;
    if (core::floors(rounding) && inexact && ((a < 0) != (b < 0))) q = q - T(1);
    return {q, false};
}

// Floats: IEEE 754 division; m_pythondiv has no effect. x/0 gives ±inf or NaN per IEEE.
inline Quotient<float> divide(float a, float b, core::IntegerRounding) {
    return {a / b, false};
}
inline Quotient<double> divide(double a, double b, core::IntegerRounding) {
    return {a / b, false};
}

// f16 and bf16: the f32 quotient rounded into 16 bits. Double rounding is innocuous because
// f32 carries 24 >= 2p + 2 bits for p = 11 (f16) and p = 8 (bf16).
inline Quotient<core::Half> divide(core::Half a, core::Half b, core::IntegerRounding) {
    return {core::half_from_float(core::to_float(a) / core::to_float(b)), false};
}
inline Quotient<core::BFloat16> divide(core::BFloat16 a, core::BFloat16 b, core::IntegerRounding) {
    return {core::bfloat16_from_float(core::to_float(a) / core::to_float(b)), false};
}

}  // namespace reference
