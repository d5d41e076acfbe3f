#include "oracle/ieee_rounding.hpp"

namespace oracle {
namespace {

long top_bit(const cpp_int& x) {
    return static_cast<long>(boost::multiprecision::msb(x));
}

// Rounds significand * 2^exponent to an integer multiple of 2^quantum, ties to even, and returns
// that multiple. quantum > exponent: some bits are dropped.
cpp_int round_to_quantum(const cpp_int& significand, long exponent, long quantum) {
    const long dropped = quantum - exponent;
    // significand < 2^(top_bit+1) <= 2^(dropped-1): the value is below half the quantum and
    // rounds to 0. Returning early also keeps the shift below small, whatever `dropped` is.
    if (top_bit(significand) + 2 <= dropped) return 0;
    const unsigned shift = static_cast<unsigned>(dropped);
    cpp_int kept = significand >> shift;
    // Compare the dropped bits with half the quantum: the round bit (the top dropped bit) and the
    // sticky bit (any dropped bit below it). Above half rounds up, a tie goes to the even side.
    const bool round_bit = bit_test(significand, shift - 1);
    const bool sticky = boost::multiprecision::lsb(significand) + 1 < shift;
    if (round_bit && (sticky || bit_test(kept, 0))) ++kept;
    return kept;
}

}  // namespace

std::uint64_t signed_zero(const FloatFormat& f, bool negative) {
    return negative ? f.sign_mask() : 0;
}

std::uint64_t signed_infinity(const FloatFormat& f, bool negative) {
    const std::uint64_t exponent_mask = (std::uint64_t{1} << f.exponent_bits) - 1;
    return signed_zero(f, negative) | (exponent_mask << f.fraction_bits());
}

std::uint64_t round_to_format(const FloatFormat& f, bool negative, const cpp_int& significand,
                              long exponent) {
    if (significand == 0) return signed_zero(f, negative);
    const long p = f.precision;
    // The value lies in the binade [2^e, 2^(e+1)) with e = top_bit + exponent. Its quantum is
    // 2^(e - (p-1)), but never below 2^(emin - (p-1)) (gradual underflow, IEEE 754 3.4).
    const long e = top_bit(significand) + exponent;
    if (e > f.emax) return signed_infinity(f, negative);
    long quantum = (e < f.emin ? f.emin : e) - (p - 1);
    cpp_int m = quantum > exponent
                    ? round_to_quantum(significand, exponent, quantum)
                    : cpp_int(significand << static_cast<unsigned>(exponent - quantum));
    // Rounding up may carry into the next binade: 2^p * 2^q is 2^(p-1) * 2^(q+1). A subnormal
    // that rounds up to 2^(p-1) * 2^(emin-(p-1)) is min_normal and needs no adjustment.
    if (m != 0 && top_bit(m) == p) {
        m >>= 1;
        ++quantum;
    }
    if (m == 0) return signed_zero(f, negative);
    // Overflow after rounding (IEEE 754 7.4: round-to-nearest overflows to ±inf), including a
    // value at or above max + half an ulp, whose tie rounds to the even 2^(emax+1).
    if (quantum + (p - 1) > f.emax) return signed_infinity(f, negative);
    const std::uint64_t field = static_cast<std::uint64_t>(m);
    const std::uint64_t implicit = std::uint64_t{1} << (p - 1);
    // Subnormal: biased exponent 0, fraction = m. Normal: biased exponent q + (p-1) + bias.
    const std::uint64_t biased =
        field < implicit ? 0 : static_cast<std::uint64_t>(quantum + (p - 1) + f.bias());
    return signed_zero(f, negative) | (biased << f.fraction_bits()) | (field & (implicit - 1));
}

std::uint64_t round_to_format(core::ElementType t, bool negative, const cpp_int& significand,
                              long exponent) {
    return round_to_format(float_format(t), negative, significand, exponent);
}

std::uint64_t round_rational_to_format(const FloatFormat& f, bool negative,
                                       const cpp_int& numerator, const cpp_int& denominator,
                                       long exponent) {
    if (numerator == 0) return signed_zero(f, negative);
    // Scale so the integer quotient has at least p + 2 bits, then append a sticky bit for a
    // non-zero remainder. The rounding then drops at least 2 bits below the kept ones, so no
    // rounding boundary (a multiple of 2 units of the scaled grid) lies strictly between the
    // true value and the sticky-adjusted one: both round the same way.
    const long scale = f.precision + 2 + top_bit(denominator) - top_bit(numerator);
    const unsigned k = scale > 0 ? static_cast<unsigned>(scale) : 0u;
    cpp_int quotient, remainder;
    boost::multiprecision::divide_qr(cpp_int(numerator << k), denominator, quotient, remainder);
    const cpp_int sticky_significand = (quotient << 1) | (remainder != 0 ? 1 : 0);
    return round_to_format(f, negative, sticky_significand, exponent - static_cast<long>(k) - 1);
}

std::uint64_t round_rational_to_format(core::ElementType t, bool negative, const cpp_int& numerator,
                                       const cpp_int& denominator, long exponent) {
    return round_rational_to_format(float_format(t), negative, numerator, denominator, exponent);
}

}  // namespace oracle
