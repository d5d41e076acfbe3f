#include "oracle/float_arithmetic.hpp"

#include "oracle/exact_value.hpp"
#include "oracle/ieee_rounding.hpp"

namespace oracle {

// IEEE 754-2019 6.2 (NaN propagation), 7.2 (invalid: 0 * inf), 6.1 (inf * nonzero finite is
// exact inf), 6.3 (the sign of a product is the XOR of the operands' signs, zeros included).
std::uint64_t multiply_float(const FloatFormat& f, std::uint64_t a_bits, std::uint64_t b_bits) {
    const ExactValue a = decode(f, a_bits);
    const ExactValue b = decode(f, b_bits);
    const bool negative = a.negative != b.negative;
    if (a.kind == FloatClass::nan || b.kind == FloatClass::nan) return f.quiet_nan;
    const bool a_inf = a.kind == FloatClass::infinite, b_inf = b.kind == FloatClass::infinite;
    const bool a_zero = a.kind == FloatClass::zero, b_zero = b.kind == FloatClass::zero;
    if ((a_inf && b_zero) || (a_zero && b_inf)) return f.quiet_nan;
    if (a_inf || b_inf) return signed_infinity(f, negative);
    if (a_zero || b_zero) return signed_zero(f, negative);
    // m1 2^e1 * m2 2^e2 = (m1 m2) 2^(e1+e2), exact in cpp_int.
    const cpp_int product = cpp_int(a.significand) * b.significand;
    return round_to_format(f, negative, product, a.exponent + b.exponent);
}

// IEEE 754-2019 7.2 (invalid: inf/inf, 0/0), 7.3 (division by zero of a finite nonzero
// dividend gives inf), 6.1 (inf / finite is inf, finite / inf is 0), 6.3 (XOR sign).
std::uint64_t divide_float(const FloatFormat& f, std::uint64_t a_bits, std::uint64_t b_bits) {
    const ExactValue a = decode(f, a_bits);
    const ExactValue b = decode(f, b_bits);
    const bool negative = a.negative != b.negative;
    if (a.kind == FloatClass::nan || b.kind == FloatClass::nan) return f.quiet_nan;
    const bool a_inf = a.kind == FloatClass::infinite, b_inf = b.kind == FloatClass::infinite;
    const bool a_zero = a.kind == FloatClass::zero, b_zero = b.kind == FloatClass::zero;
    if ((a_inf && b_inf) || (a_zero && b_zero)) return f.quiet_nan;
    if (a_inf || b_zero) return signed_infinity(f, negative);
    if (a_zero || b_inf) return signed_zero(f, negative);
    // (m1 2^e1) / (m2 2^e2) = (m1 / m2) 2^(e1-e2): an exact rational.
    return round_rational_to_format(f, negative, cpp_int(a.significand), cpp_int(b.significand),
                                    a.exponent - b.exponent);
}

std::uint64_t multiply_float(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits) {
    return multiply_float(float_format(t), a_bits, b_bits);
}

std::uint64_t divide_float(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits) {
    return divide_float(float_format(t), a_bits, b_bits);
}

}  // namespace oracle
