#include "oracle/exact_value.hpp"

namespace oracle {

ExactValue decode(const FloatFormat& f, std::uint64_t bits) {
    const int m = f.fraction_bits();
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << m) - 1);
    const std::uint64_t exponent_mask = (std::uint64_t{1} << f.exponent_bits) - 1;
    const std::uint64_t biased = (bits >> m) & exponent_mask;
    ExactValue v;
    v.negative = (bits & f.sign_mask()) != 0;
    if (biased == exponent_mask) {
        v.kind = fraction == 0 ? FloatClass::infinite : FloatClass::nan;
        return v;
    }
    if (biased == 0 && fraction == 0) return v;  // ±0
    v.kind = FloatClass::finite;
    // Subnormals share the quantum of the smallest normal binade: 2^(emin - (p - 1)).
    const long unbiased = biased == 0 ? f.emin : static_cast<long>(biased) - f.bias();
    v.significand = biased == 0 ? fraction : (fraction | (std::uint64_t{1} << m));
    v.exponent = unbiased - m;
    return v;
}

}  // namespace oracle
