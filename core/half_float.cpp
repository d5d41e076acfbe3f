#include "core/half_float.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace core {
namespace {

struct Format16 {
    int exponent_bits;
    int mantissa_bits;  // stored fraction bits, without the implicit bit
};
constexpr Format16 kHalf{5, 10};
constexpr Format16 kBFloat16{8, 7};

float widen(std::uint16_t bits, Format16 f) {
    // Re-bias into f32's layout; subnormals are scaled by an exact power of two.
    const std::uint32_t sign = std::uint32_t(bits >> 15) << 31;
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    const std::uint32_t exponent = (bits >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
    const std::uint32_t fraction = bits & ((1u << f.mantissa_bits) - 1);
    const int shift = 23 - f.mantissa_bits;
    std::uint32_t out;
    if (exponent == (1u << f.exponent_bits) - 1) {
        out = sign | 0x7F800000u | (fraction << shift);
    } else if (exponent != 0) {
        out = sign | ((exponent - bias + 127) << 23) | (fraction << shift);
    } else if (fraction == 0) {
        out = sign;
    } else {
        // value = fraction · 2^(1 - bias - mantissa_bits): exact in f32 for both formats. ldexp,
        // not a bit-built power of two: 2^-133 (bf16) is itself an f32 subnormal.
        const float magnitude =
            std::ldexp(static_cast<float>(fraction), 1 - bias - f.mantissa_bits);
        out = sign | std::bit_cast<std::uint32_t>(magnitude);
    }
    return std::bit_cast<float>(out);
}

// Round-to-nearest-even of the significand m·2^-shift, shift ≥ 1.
std::uint64_t round_shift(std::uint64_t m, int shift) {
    if (shift >= 64) return 0;  // m < 2^53 ≤ 2^(shift-1): below half of one unit
    const std::uint64_t q = m >> shift;
    const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    return (rem > half || (rem == half && (q & 1))) ? q + 1 : q;
}

std::uint16_t narrow(double x, Format16 f) {
    const std::uint64_t in = std::bit_cast<std::uint64_t>(x);
    const std::uint16_t sign = static_cast<std::uint16_t>((in >> 63) << 15);
    const int in_exponent = static_cast<int>((in >> 52) & 0x7FF);
    const std::uint64_t in_fraction = in & ((std::uint64_t{1} << 52) - 1);
    const std::uint16_t inf =
        static_cast<std::uint16_t>(((1u << f.exponent_bits) - 1) << f.mantissa_bits);
    if (in_exponent == 0x7FF) {
        if (in_fraction == 0) return sign | inf;
        // NaN: keep the top payload bits and force the quiet bit so it never becomes inf.
        const auto payload = static_cast<std::uint16_t>(in_fraction >> (52 - f.mantissa_bits));
        return sign | inf | payload | static_cast<std::uint16_t>(1u << (f.mantissa_bits - 1));
    }
    if (in_exponent == 0 && in_fraction == 0) return sign;

    // |x| = m · 2^e exactly, with m an integer.
    const std::uint64_t m = in_exponent ? (in_fraction | (std::uint64_t{1} << 52)) : in_fraction;
    const int e = (in_exponent ? in_exponent : 1) - 1075;
    const int top = std::bit_width(m) - 1 + e;  // floor(log2 |x|)
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    const int min_quantum = 1 - bias - f.mantissa_bits;  // exponent of the smallest subnormal
    const int quantum = top - f.mantissa_bits > min_quantum ? top - f.mantissa_bits : min_quantum;
    // The result is n · 2^quantum; with the implicit bit folded in, the encoding is
    // (biased_exponent - 1) << mantissa_bits plus n, and a carry out of n bumps the exponent.
    const std::uint64_t n = round_shift(m, quantum - e);
    const std::uint64_t biased_minus_one = static_cast<std::uint64_t>(quantum - min_quantum);
    const std::uint64_t encoded = (biased_minus_one << f.mantissa_bits) + n;
    if (encoded >= inf) return sign | inf;
    return sign | static_cast<std::uint16_t>(encoded);
}

}  // namespace

float to_float(Half h) {
    return widen(h.bits, kHalf);
}
float to_float(BFloat16 h) {
    return widen(h.bits, kBFloat16);
}
Half half_from_double(double x) {
    return Half{narrow(x, kHalf)};
}
Half half_from_float(float x) {
    return Half{narrow(static_cast<double>(x), kHalf)};
}
BFloat16 bfloat16_from_double(double x) {
    return BFloat16{narrow(x, kBFloat16)};
}
BFloat16 bfloat16_from_float(float x) {
    return BFloat16{narrow(static_cast<double>(x), kBFloat16)};
}

}  // namespace core
