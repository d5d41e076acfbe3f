// f16 and bf16 <-> f32 with integer operations only, written to vectorize under `omp simd`.
// Bit-identical to core::to_float and core::half_from_float / core::bfloat16_from_float,
// including NaN payloads (top payload bits kept, quiet bit forced) and signed zeros.
//
// Everything here has internal linkage: each kernel translation unit (one per instruction set)
// compiles its own copy for its own target, and no copy can be merged into another ISA's code.
#pragma once

#include <cstdint>

namespace optimized {
namespace {

inline float float_from_bits(std::uint32_t bits) {
    return __builtin_bit_cast(float, bits);
}
inline std::uint32_t bits_of(float x) {
    return __builtin_bit_cast(std::uint32_t, x);
}

// c ? x : y as bit operations. A plain ?: lets GCC sink the unselected operand's float
// arithmetic or conversion into a branch, and with -ftrapping-math (the default, which this
// project keeps) it will not if-convert that branch back, so the loop stays scalar. A blend
// keeps every operand live on every lane.
template <class U>
U blend(bool c, U x, U y) {
    const U mask = static_cast<U>(U(0) - static_cast<U>(c));
    return static_cast<U>((x & mask) | (y & static_cast<U>(~mask)));
}

// binary16 -> f32, exact. Subnormals are f·2^-24: an exact int->float conversion times an
// exact power of two whose product is a normal f32, so no rounding mode or FTZ matters.
inline float f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    const std::uint32_t fraction = h & 0x3FFu;
    const std::uint32_t normal = sign | ((exponent + 112u) << 23) | (fraction << 13);
    const std::uint32_t special = sign | 0x7F800000u | (fraction << 13);  // inf, NaN
    const float subnormal = static_cast<float>(static_cast<int>(fraction)) * 0x1p-24f;
    const std::uint32_t tiny = sign | bits_of(subnormal);  // also ±0
    return float_from_bits(blend(exponent == 31, special, blend(exponent != 0, normal, tiny)));
}

// Round to nearest, ties to even, of m / 2^shift for 1 <= shift <= 31.
inline std::uint32_t round_shift(std::uint32_t m, std::uint32_t shift) {
    const std::uint32_t q = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u);
    const std::uint32_t half = 1u << (shift - 1u);
    return q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
}

// f32 -> binary16, round to nearest even, gradual underflow, overflow to ±inf.
inline std::uint16_t f32_to_f16(float x) {
    const std::uint32_t bits = bits_of(x);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const std::uint32_t abs = bits & 0x7FFFFFFFu;
    // NaN: the top 10 payload bits, quiet bit forced (core keeps NaN a NaN the same way).
    const std::uint32_t nan = 0x7C00u | ((abs >> 13) & 0x3FFu) | 0x200u;
    // Normal range: re-bias the exponent by 127 - 15, then round off 13 fraction bits. A carry
    // out of the fraction correctly bumps the exponent; 0x477FF000 (65520, halfway between
    // 65504 and 2^16) and above round to inf.
    const std::uint32_t rebased = abs - (112u << 23);
    const std::uint32_t normal = (rebased + 0xFFFu + ((rebased >> 13) & 1u)) >> 13;
    // Below 2^-14: count units of 2^-24 in m·2^(e-150), i.e. m / 2^(126-e); shifts of 25 or
    // more leave nothing above half a unit, 31 keeps the shift defined. f32 subnormals (e = 0)
    // are far below 2^-25 and round to 0 whatever m is. Every lane computes this branch, so
    // the shift is clamped for large e too (that result is then discarded).
    const std::uint32_t e = abs >> 23;
    const std::uint32_t m = (abs & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = e < 95u ? 31u : e > 112u ? 14u : 126u - e;
    const std::uint32_t small = round_shift(m, shift);
    const std::uint32_t magnitude = abs > 0x7F800000u    ? nan
                                    : abs >= 0x477FF000u ? 0x7C00u
                                    : abs >= 0x38800000u ? normal
                                                         : small;
    return static_cast<std::uint16_t>(sign | magnitude);
}

// bfloat16 is the top half of an f32: widening is a shift.
inline float bf16_to_f32(std::uint16_t h) {
    return float_from_bits(std::uint32_t(h) << 16);
}

// f32 -> bfloat16, round to nearest even; a carry into the exponent is the right result (up to
// inf). NaN keeps its top 7 payload bits and gets the quiet bit, as core does.
inline std::uint16_t f32_to_bf16(float x) {
    const std::uint32_t bits = bits_of(x);
    const std::uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    const std::uint32_t nan = (bits >> 16) | 0x40u;
    const bool is_nan = (bits & 0x7FFFFFFFu) > 0x7F800000u;
    return static_cast<std::uint16_t>(blend(is_nan, nan, rounded));
}

}  // namespace
}  // namespace optimized
