// Integer division without trapping instructions, matching reference/divide.hpp bit for bit.
//
// Why a float quotient is exact enough. Let a, b be integers, b != 0, |a| < 2^p where p is the
// float's precision (24 for f32, 53 for f64). Both convert exactly and IEEE division rounds the
// true quotient q = a/b once: |fl(q) - q| <= |q|·2^-p = |a|/|b|·2^-p < 1/|b|.
//  * If q is an integer, |q| <= |a| < 2^p is representable, so fl(q) = q.
//  * Otherwise every integer n satisfies |q - n| = |a - n·b|/|b| >= 1/|b| > |fl(q) - q|, so
//    fl(q) lies strictly between the same two consecutive integers as q.
// Hence trunc(fl(q)) = trunc(q) and floor(fl(q)) = floor(q). 8- and 16-bit operands have
// |a| <= 2^16 < 2^24 (f32 suffices); 32-bit operands have |a| <= 2^32 < 2^53 (f64). 64-bit
// operands do not fit any hardware float and take a guarded integer path.
//
// Division by zero: the divisor lane is replaced by 1 and the result by 0 (with blend(), see
// float16_convert.hpp, so the loops vectorize); the caller records
// the index as undefined. MIN / -1: the exact quotient -MIN wraps to MIN
// (docs/SEMANTICS.md section 2.4).
//
// Internal linkage, like float16_convert.hpp: each instruction-set TU compiles its own copy.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "optimized/float16_convert.hpp"  // blend

namespace optimized {
namespace {

// q rounded to an integer t with |t - q| < 1, for |q| < 2^(p-2), without std::floor (which GCC
// does not vectorize while -ftrapping-math is on): adding and removing 1.5·2^(p-1) rounds once
// and subtracts exactly (no -ffast-math, so it is not folded away). Any rounding mode works.
template <class F>
F round_to_integer(F q) {
    constexpr F kMagic = sizeof(F) == 4 ? F(0x1.8p23) : F(0x1.8p52);
    return (q + kMagic) - kMagic;
}

// floor(q) or trunc(q) as int32, for |q| < 2^(p-2) and a result within int32. The floor step
// (t > q: t rounded up) is taken in integers: a float "t - 1" would be made conditional by GCC
// and, possibly trapping, never if-converted back.
template <bool Floor, class F>
std::int32_t quotient_to_int32(F q) {
    if constexpr (Floor) {
        const F t = round_to_integer(q);
        return static_cast<std::int32_t>(t) - static_cast<std::int32_t>(t > q);
    } else {
        return static_cast<std::int32_t>(q);  // the conversion truncates
    }
}

// 8- and 16-bit, through f32. The quotient lies in [-2^15, 2^16] (< 2^22) and fits int32; the
// narrowing conversion wraps modulo 2^N (C++20), which turns -MIN into MIN.
template <bool Floor, class T>
requires(std::is_integral_v<T> && sizeof(T) <= 2) T divide_integer(T a, T b) {
    const T divisor = blend(b == 0, T(1), b);
    const float q = static_cast<float>(a) / static_cast<float>(divisor);
    // Unsigned operands give q >= 0, where floor and truncation agree: skip the floor step.
    const T value = static_cast<T>(quotient_to_int32 < Floor && std::is_signed_v<T> > (q));
    return blend(b == 0, T(0), value);
}

// i32, through f64 (|q| <= 2^31 < 2^51). b = -1 is taken apart so the conversion back never
// sees 2^31.
template <bool Floor>
std::int32_t divide_integer(std::int32_t a, std::int32_t b) {
    const bool minus_one = b == -1;
    const std::int32_t divisor = blend(b == 0 || minus_one, 1, b);
    const double q = static_cast<double>(a) / divisor;
    const auto negated = static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(a));
    const std::int32_t value = blend(minus_one, negated, quotient_to_int32<Floor>(q));
    return blend(b == 0, 0, value);
}

// u32 <-> f64 through a 2^31 bias, so that only the signed conversions (which vectorize) run.
inline double u32_to_f64(std::uint32_t x) {
    return static_cast<double>(static_cast<std::int32_t>(x ^ 0x80000000u)) + 2147483648.0;
}
inline std::uint32_t integral_f64_to_u32(double x) {  // x an integer in [0, 2^32)
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(x - 2147483648.0)) ^ 0x80000000u;
}

// u32, through f64; floor and truncation agree for unsigned operands.
template <bool Floor>
std::uint32_t divide_integer(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t divisor = blend(b == 0, 1u, b);
    const double q = u32_to_f64(a) / u32_to_f64(divisor);  // < 2^32 < 2^51
    const double t = round_to_integer(q);
    const std::uint32_t floor = integral_f64_to_u32(t) - static_cast<std::uint32_t>(t > q);
    return blend(b == 0, 0u, floor);
}

// 64-bit: hardware division on a divisor that is never 0 and never -1 with MIN.
template <bool Floor, class T>
requires(std::is_integral_v<T> && sizeof(T) == 8) T divide_integer(T a, T b) {
    bool wraps = false;
    if constexpr (std::is_signed_v<T>) wraps = a == std::numeric_limits<T>::min() && b == T(-1);
    const T divisor = (b == 0 || wraps) ? T(1) : b;
    T q = static_cast<T>(a / divisor);
    if constexpr (Floor && std::is_signed_v<T>) {
        const bool inexact = static_cast<T>(a % divisor) != 0;
        if (inexact && ((a < 0) != (divisor < 0))) q = static_cast<T>(q - 1);
    }
    return b == 0 ? T(0) : q;  // when wraps, q = a / 1 = MIN, the wrapped -MIN
}

// Division of many u64 by one divisor d != 0 with a multiply and shifts (Granlund and
// Montgomery, "Division by invariant integers using multiplication", PLDI 1994, fig. 4.1):
// with l = ceil(log2 d), m = floor(2^64·(2^l - d)/d) + 1, t = mulhi(m, n),
// n / d = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0). Holds for every n < 2^64.
struct InvariantDivisor64 {
    std::uint64_t multiplier;
    int shift1;
    int shift2;
};

inline InvariantDivisor64 invariant_divisor(std::uint64_t d) {
    __extension__ using U128 = unsigned __int128;
    const int l = d == 1 ? 0 : 64 - __builtin_clzll(d - 1);
    const U128 span = (U128{1} << l) - d;  // < d, so the quotient below fits 64 bits
    const auto m = static_cast<std::uint64_t>((span << 64) / d + 1);
    return {m, l < 1 ? l : 1, l > 1 ? l - 1 : 0};
}

inline std::uint64_t divide_invariant(std::uint64_t n, const InvariantDivisor64& d) {
    __extension__ using U128 = unsigned __int128;
    const auto t = static_cast<std::uint64_t>((U128{d.multiplier} * n) >> 64);
    return (t + ((n - t) >> d.shift1)) >> d.shift2;
}

// Signed 64-bit by an invariant divisor: divide magnitudes (|MIN| = 2^63 is fine unsigned),
// then restore the sign modulo 2^64, which makes MIN / -1 wrap to MIN.
template <bool Floor>
std::int64_t divide_invariant_signed(std::int64_t a, std::uint64_t abs_b, bool b_negative,
                                     const InvariantDivisor64& d) {
    const std::uint64_t abs_a = a < 0 ? 0 - static_cast<std::uint64_t>(a) : std::uint64_t(a);
    std::uint64_t q = divide_invariant(abs_a, d);
    const bool negative = (a < 0) != b_negative;
    if (Floor && negative && q * abs_b != abs_a) q += 1;  // floor = -(ceil of the magnitude)
    return static_cast<std::int64_t>(negative ? 0 - q : q);
}

}  // namespace
}  // namespace optimized
