#include "behaviours/behaviour_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "core/error.hpp"
#include "core/half_float.hpp"
#include "reference/divide.hpp"
#include "reference/multiply.hpp"

namespace behaviours {
namespace {

struct NamedFlag {
    std::string_view name;
    bool Model::*flag;
};
constexpr NamedFlag kFlags[] = {
    {"legacy_broadcast_read_as_numpy", &Model::legacy_broadcast_read_as_numpy},
    {"pdpd_axis_unset_read_as_zero", &Model::pdpd_axis_unset_read_as_zero},
    {"pdpd_axis_ignored", &Model::pdpd_axis_ignored},
    {"subnormal_inputs_zero", &Model::subnormal_inputs_zero},
    {"constant_subnormals_and_negative_zero_lost",
     &Model::constant_subnormals_and_negative_zero_lost},
    {"wide_constants_saturated_to_i32", &Model::wide_constants_saturated_to_i32},
    {"constants_clamped_to_bf16_range", &Model::constants_clamped_to_bf16_range},
    {"folded_result_is_constant", &Model::folded_result_is_constant},
    {"results_saturated_to_i32", &Model::results_saturated_to_i32},
    {"computed_in_f32", &Model::computed_in_f32},
    {"computed_in_f16", &Model::computed_in_f16},
    {"computed_in_bf16", &Model::computed_in_bf16},
    {"computed_in_i32", &Model::computed_in_i32},
    {"integer_division_via_f32", &Model::integer_division_via_f32},
    {"truncated_quotient_through_f64", &Model::truncated_quotient_through_f64},
    {"integer_multiplication_via_f32", &Model::integer_multiplication_via_f32},
    {"f32_to_integer_wraps", &Model::f32_to_integer_wraps},
    {"integer_floor_division_of_rounded_f32", &Model::integer_floor_division_of_rounded_f32},
    {"integers_computed_in_f32", &Model::integers_computed_in_f32},
    {"integers_through_f32_and_i32", &Model::integers_through_f32_and_i32},
    {"integers_through_f32_clamped_to_i32", &Model::integers_through_f32_clamped_to_i32},
    {"floor_quotient_from_f32_remainder", &Model::floor_quotient_from_f32_remainder},
    {"division_by_reciprocal", &Model::division_by_reciprocal},
    {"division_by_f32_reciprocal", &Model::division_by_f32_reciprocal},
    {"reciprocal_rounded_toward_zero", &Model::reciprocal_rounded_toward_zero},
    {"reciprocal_rounded_away_from_zero", &Model::reciprocal_rounded_away_from_zero},
    {"reciprocal_only_for_one_element_divisor", &Model::reciprocal_only_for_one_element_divisor},
    {"floor_for_trunc", &Model::floor_for_trunc},
    {"trunc_for_floor", &Model::trunc_for_floor},
    {"equal_operands_divide_to_one", &Model::equal_operands_divide_to_one},
    {"results_rounded_toward_zero", &Model::results_rounded_toward_zero},
    {"results_rounded_ties_away", &Model::results_rounded_ties_away},
    {"integer_results_saturated", &Model::integer_results_saturated},
    {"products_through_i16_saturated", &Model::products_through_i16_saturated},
    {"infinities_clamped", &Model::infinities_clamped},
    {"nan_results_negative_infinity", &Model::nan_results_negative_infinity},
    {"negative_zero_results_lost", &Model::negative_zero_results_lost},
    {"subnormal_results_flushed", &Model::subnormal_results_flushed},
    {"subnormal_results_flushed_before_rounding",
     &Model::subnormal_results_flushed_before_rounding},
    {"overflow_before_rounding", &Model::overflow_before_rounding},
    {"f16_results_all_zero", &Model::f16_results_all_zero},
};

// ---------------------------------------------------------------------------------------------
// Floats. Every value of the four float types is exact in double, and so is every product of
// two of f16, bf16 or f32; a double quotient rounded once more into them is innocuous
// (53 >= 2 * 24 + 2). So the double result rounded once is the correctly rounded one.

template <class T>
struct Float;
template <>
struct Float<core::Half> {
    using Bits = std::uint16_t;
    static constexpr int kMantissa = 10;
    static double wide(core::Half v) { return core::to_float(v); }
    static core::Half nearest(double d) { return core::half_from_double(d); }
    static Bits bits(core::Half v) { return v.bits; }
    static core::Half from(Bits b) { return {b}; }
};
template <>
struct Float<core::BFloat16> {
    using Bits = std::uint16_t;
    static constexpr int kMantissa = 7;
    static double wide(core::BFloat16 v) { return core::to_float(v); }
    static core::BFloat16 nearest(double d) { return core::bfloat16_from_double(d); }
    static Bits bits(core::BFloat16 v) { return v.bits; }
    static core::BFloat16 from(Bits b) { return {b}; }
};
template <>
struct Float<float> {
    using Bits = std::uint32_t;
    static constexpr int kMantissa = 23;
    static double wide(float v) { return v; }
    static float nearest(double d) { return static_cast<float>(d); }
    static Bits bits(float v) { return std::bit_cast<Bits>(v); }
    static float from(Bits b) { return std::bit_cast<float>(b); }
};
template <>
struct Float<double> {
    using Bits = std::uint64_t;
    static constexpr int kMantissa = 52;
    static double wide(double v) { return v; }
    static double nearest(double d) { return d; }
    static Bits bits(double v) { return std::bit_cast<Bits>(v); }
    static double from(Bits b) { return std::bit_cast<double>(b); }
};

template <class T>
using Bits = typename Float<T>::Bits;
template <class T>
constexpr Bits<T> kSign = static_cast<Bits<T>>(Bits<T>{1} << (8 * sizeof(Bits<T>) - 1));
template <class T>
constexpr Bits<T> kMinNormal = static_cast<Bits<T>>(Bits<T>{1} << Float<T>::kMantissa);
template <class T>
constexpr Bits<T> kInf = static_cast<Bits<T>>(static_cast<Bits<T>>(~kSign<T>) &
                                              ~(kMinNormal<T> - 1));

template <class T>
Bits<T> magnitude(T v) {
    return static_cast<Bits<T>>(Float<T>::bits(v) & ~kSign<T>);
}
template <class T>
T signed_zero(T v) {
    return Float<T>::from(static_cast<Bits<T>>(Float<T>::bits(v) & kSign<T>));
}
template <class T>
bool is_subnormal(T v) {
    return magnitude(v) != 0 && magnitude(v) < kMinNormal<T>;
}
template <class T>
T flush(T v) {
    return is_subnormal(v) ? signed_zero(v) : v;
}

// f32 rounded toward zero into T: the nearest value, one ordinal toward zero when it is farther
// from zero than f (the nearest is one of the two neighbours; inf steps down to the largest
// finite value). NaN stays NaN.
template <class T>
T toward_zero(float f) {
    const T n = Float<T>::nearest(f);
    if (std::isnan(f) || !(std::fabs(Float<T>::wide(n)) > std::fabs(f))) return n;
    return Float<T>::from(static_cast<Bits<T>>(Float<T>::bits(n) - 1));
}

// f32 rounded to nearest into T with ties away from zero: toward zero, then one ordinal away
// when f lies at or past the midpoint of the two neighbours (exact in double). NaN stays NaN.
template <class T>
T ties_away(float f) {
    const T t = toward_zero<T>(f);
    if (std::isnan(f) || Float<T>::wide(t) == f) return t;
    const T away = Float<T>::from(static_cast<Bits<T>>(Float<T>::bits(t) + 1));
    const double below = std::fabs(f - Float<T>::wide(t));
    // Past the largest finite value the next ordinal is inf, whose "distance" is the rounding
    // boundary of IEEE's overflow rule: half a unit above the largest finite value. (Only there:
    // t may be 0, whose ilogb is FP_ILOGB0, and subtracting from it overflows.)
    const auto unit = [&] {
        return std::ldexp(1.0, std::ilogb(Float<T>::wide(t)) - Float<T>::kMantissa);
    };
    const double above =
        magnitude(away) == kInf<T> ? unit() - below : std::fabs(Float<T>::wide(away) - f);
    return below >= above ? away : t;
}

template <class T>
T saturate_infinity(T v) {
    if (magnitude(v) != kInf<T>) return v;
    return Float<T>::from(static_cast<Bits<T>>((Float<T>::bits(v) & kSign<T>) | (kInf<T> - 1)));
}

// T's rounding of a double result: to nearest, or (16-bit types under results_rounded_toward_
// zero) to f32 first and then toward zero, as a conversion instruction that truncates does.
template <class T>
T round_result(const Model& m, double r) {
    if constexpr (sizeof(T) == 2) {
        const double max = Float<T>::wide(Float<T>::from(static_cast<Bits<T>>(kInf<T> - 1)));
        if (m.overflow_before_rounding && std::fabs(r) > max && !std::isnan(r))
            return Float<T>::from(static_cast<Bits<T>>((r < 0 ? kSign<T> : 0) | kInf<T>));
        if (m.results_rounded_toward_zero) return toward_zero<T>(static_cast<float>(r));
        if (m.results_rounded_ties_away) return ties_away<T>(static_cast<float>(r));
    }
    return Float<T>::nearest(r);
}

// A constant operand as the graph holds it.
template <class T>
T as_constant(const Model& m, T v) {
    if constexpr (std::is_integral_v<T> && sizeof(T) >= 4) {
        if (m.wide_constants_saturated_to_i32) {
            if constexpr (std::is_signed_v<T>)
                return std::clamp<T>(v, std::numeric_limits<std::int32_t>::min(),
                                     std::numeric_limits<std::int32_t>::max());
            else
                return std::min<T>(v, std::numeric_limits<std::int32_t>::max());
        }
    } else if constexpr (!std::is_integral_v<T>) {
        if (m.constant_subnormals_and_negative_zero_lost &&
            (is_subnormal(v) || Float<T>::bits(v) == kSign<T>))
            return Float<T>::from(0);
        if constexpr (sizeof(T) >= 4) {
            constexpr double kBf16Max = 0x1.fep127;  // bf16 0x7f7f
            const double w = Float<T>::wide(v);
            if (m.constants_clamped_to_bf16_range && std::fabs(w) > kBf16Max)
                return Float<T>::nearest(std::copysign(kBf16Max, w));
        }
    }
    return v;
}

// The reciprocal as a flushing unit gives it: a subnormal 1/B becomes ±0.
// With a constant B and folded values as constants, 1/B is folded into a constant too.
template <class R>
R reciprocal(const Model& m, R y) {
    R r = R(1) / y;
    if (m.reciprocal_rounded_away_from_zero && std::isfinite(r) && r != 0 &&
        std::fma(r, y, R(-1)) != 0 && std::fabs(r * static_cast<long double>(y)) < 1.0L)
        r = std::nextafter(r, std::copysign(std::numeric_limits<R>::infinity(), r));
    const bool flush = m.subnormal_results_flushed || m.subnormal_results_flushed_before_rounding;
    if (m.reciprocal_is_constant) return as_constant(m, r);
    return flush && std::fpclassify(r) == FP_SUBNORMAL ? std::copysign(R(0), r) : r;
}

template <class T>
T divide_natural(const Model& m, T x, T y) {
    if constexpr (std::is_same_v<T, double>) {
        if (m.division_by_reciprocal) return x * reciprocal(m, y);
        return x / y;
    } else if constexpr (std::is_same_v<T, float>) {
        if (m.division_by_reciprocal || m.division_by_f32_reciprocal) return x * reciprocal(m, y);
        return x / y;
    } else {
        const double wx = Float<T>::wide(x), wy = Float<T>::wide(y);
        if (m.division_by_f32_reciprocal)
            return round_result<T>(m,
                                   static_cast<float>(wx) * reciprocal(m, static_cast<float>(wy)));
        // 1/B rounded in T as the results are (toward zero under results_rounded_toward_zero),
        // or toward zero from f32 under reciprocal_rounded_toward_zero.
        if (m.division_by_reciprocal) {
            const T r = m.reciprocal_rounded_toward_zero
                            ? toward_zero<T>(static_cast<float>(1.0 / wy))
                            : round_result<T>(m, 1.0 / wy);
            return round_result<T>(m, wx * Float<T>::wide(r));
        }
        return round_result<T>(m, wx / wy);
    }
}

template <class T>
T compute(const Model& m, T x, T y, bool multiply);

// An f64 or f32 call computed in a narrower type, the operands rounded into it.
template <class T, class N>
T narrowed(const Model& m, T x, T y, bool multiply) {
    Model inner = m;
    inner.computed_in_f32 = inner.computed_in_f16 = inner.computed_in_bf16 = false;
    N nx = Float<N>::nearest(Float<T>::wide(x)), ny = Float<N>::nearest(Float<T>::wide(y));
    if (m.infinities_clamped) {
        nx = saturate_infinity(nx);
        ny = saturate_infinity(ny);
    }
    N r = compute(inner, nx, ny, multiply);
    if (m.infinities_clamped) r = saturate_infinity(r);
    return Float<T>::nearest(Float<N>::wide(r));
}

// The pipeline without the result's flush: operands, then the operation.
template <class T>
T compute(const Model& m, T x, T y, bool multiply) {
    if constexpr (std::is_same_v<T, double>) {
        if (m.computed_in_f32) return narrowed<double, float>(m, x, y, multiply);
    }
    if constexpr (std::is_same_v<T, float>) {
        if (m.computed_in_f16) return narrowed<float, core::Half>(m, x, y, multiply);
        if (m.computed_in_bf16) return narrowed<float, core::BFloat16>(m, x, y, multiply);
    }
    if (!multiply) return divide_natural(m, x, y);
    if constexpr (sizeof(T) == 2)
        return round_result<T>(m, Float<T>::wide(x) * Float<T>::wide(y));
    else
        return x * y;
}

template <class T>
T scaled(T v, int k) {
    return Float<T>::nearest(std::ldexp(Float<T>::wide(v), k));
}

// x86 flush-to-zero (MXCSR.FTZ) returns ±0 for a result that is tiny after rounding: rounded to
// T's precision with an unbounded exponent, below the smallest normal. A result rounded up to the
// smallest normal is such a result; it is found by computing the same call scaled by 2^k into
// the normal range, which scales the exact result and its rounding alike.
template <class T>
bool tiny_after_rounding(const Model& m, T x, T y, T r, bool multiply) {
    if (is_subnormal(r)) return true;
    if (magnitude(r) != kMinNormal<T>) return false;
    constexpr int k = Float<T>::kMantissa + 3;
    const double ax = std::fabs(Float<T>::wide(x)), ay = std::fabs(Float<T>::wide(y));
    T s;
    if (multiply)
        s = ax <= ay ? compute(m, scaled(x, k), y, true) : compute(m, x, scaled(y, k), true);
    else
        s = ax <= 1 ? compute(m, scaled(x, k), y, false) : compute(m, x, scaled(y, -k), false);
    return std::fabs(Float<T>::wide(s)) <
           std::ldexp(Float<T>::wide(Float<T>::from(kMinNormal<T>)), k);
}

// Tiny before rounding: the exact result below the smallest normal in magnitude. Only a result
// that rounded to exactly the smallest normal needs the exact value; the operands, scaled as
// above, are exact doubles and fma gives the rounding error of their product or quotient.
template <class T>
bool tiny_before_rounding(T x, T y, T r, bool multiply) {
    if (is_subnormal(r)) return true;
    if (magnitude(r) != kMinNormal<T>) return false;
    constexpr int k = Float<T>::kMantissa + 3;
    double a = std::fabs(Float<T>::wide(x)), b = std::fabs(Float<T>::wide(y));
    if (multiply ? a <= b : a <= 1)
        a = std::ldexp(a, k);
    else
        b = multiply ? std::ldexp(b, k) : std::ldexp(b, -k);
    const double threshold = std::ldexp(Float<T>::wide(Float<T>::from(kMinNormal<T>)), k);
    const double q = multiply ? a * b : a / b;
    // exact = q + error, with error = a*b - q, or (a - q*b) / b for the quotient
    const double error = multiply ? std::fma(a, b, -q) : std::fma(-q, b, a);
    return q < threshold || (q == threshold && error < 0);
}

template <class T>
T model_float(const Model& m, T x, T y, bool multiply) {
    if (m.subnormal_inputs_zero) {
        x = flush(x);
        y = flush(y);
    }
    if (m.equal_operands_divide_to_one && !multiply && Float<T>::wide(x) == Float<T>::wide(y))
        return Float<T>::nearest(1.0);
    T r = compute(m, x, y, multiply);
    if (m.infinities_clamped) r = saturate_infinity(r);
    if (m.subnormal_results_flushed && !std::isnan(Float<T>::wide(r)) &&
        tiny_after_rounding(m, x, y, r, multiply))
        r = signed_zero(r);
    if (m.subnormal_results_flushed_before_rounding && !std::isnan(Float<T>::wide(r)) &&
        tiny_before_rounding(x, y, r, multiply))
        r = signed_zero(r);
    if (m.nan_results_negative_infinity && std::isnan(Float<T>::wide(r)))
        r = Float<T>::from(static_cast<Bits<T>>(kSign<T> | kInf<T>));
    if (m.negative_zero_results_lost && Float<T>::bits(r) == kSign<T>) r = Float<T>::from(0);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Integers.

template <class T>
T clamp_to(long double exact) {
    if (exact > static_cast<long double>(std::numeric_limits<T>::max()))
        return std::numeric_limits<T>::max();
    if (exact < static_cast<long double>(std::numeric_limits<T>::lowest()))
        return std::numeric_limits<T>::lowest();
    return static_cast<T>(exact);
}

// The exact product clamped into T: __builtin_mul_overflow tells whether it fits.
template <class T>
T saturated_product(T x, T y) {
    T r;
    if (!__builtin_mul_overflow(x, y, &r)) return r;
    const bool negative = std::is_signed_v<T> && ((x < 0) != (y < 0));
    return negative ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// ECMAScript's ToInt32 (section 7.1.6): NaN and ±inf 0, else truncated and taken modulo 2^32.
std::int32_t to_int32_as_javascript(double v) {
    if (!std::isfinite(v)) return 0;
    double low = std::fmod(std::trunc(v), 4294967296.0);
    if (low < 0) low += 4294967296.0;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(low));
}

// cvttps2dq (and SwiftShader's f32 -> i32 conversion on x86): truncated, INT32_MIN outside i32
// and for NaN (the "integer indefinite").
std::int32_t to_int32_or_indefinite(float v) {
    if (v >= -2147483648.0f && v < 2147483648.0f) return static_cast<std::int32_t>(v);
    return std::numeric_limits<std::int32_t>::min();
}

template <class T>
T widened(std::int32_t i) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::int64_t>(i)));
}

// An f32 product or quotient converted back as cvttps2dq does: truncated (after floor where the
// op floors), and INT32_MIN for a value outside i32 (the "integer indefinite"), or as ToInt32
// does under f32_to_integer_wraps; then wrapped into T.
template <class T>
T via_f32(T x, T y, bool multiply, core::IntegerRounding rounding, bool wraps) {
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    float q = multiply ? fx * fy : fx / fy;
    if (core::floors(rounding)) q = std::floor(q);
    q = std::trunc(q);
    if (wraps) return widened<T>(to_int32_as_javascript(q));
    if constexpr (sizeof(T) == 8 && std::is_unsigned_v<T>) {
        if (q >= 0 && q < 18446744073709551616.0f) return static_cast<T>(q);
    }
    return widened<T>(to_int32_or_indefinite(q));
}

// i32 arithmetic as a shader's wraps (no undefined overflow).
std::int32_t wrapping(std::int64_t v) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

// TF.js's webgl INT_DIV and idiv (tf.min.js 4.22.0) on SwiftShader: round(v) is
// int(floor(v + 0.5)); SwiftShader's OpSDiv turns INT32_MIN / -1 into -1 / -1 to avoid the trap;
// imod(a, b) = a - b * (a / b); the quotient is lowered by one when sign(a) * sign(b) < 0 on the
// f32 operands and the remainder is not 0. The f32 result is read back as ToInt32.
template <class T>
std::optional<T> webgl_floor_division(T x, T y) {
    if (y == 0) return std::nullopt;  // the shader's NaN; the spec's x / 0 is never compared
    const float fa = static_cast<float>(x), fb = static_cast<float>(y);
    const auto round = [](float v) { return to_int32_or_indefinite(std::floor(v + 0.5f)); };
    const std::int32_t ia = round(fa), ib = round(fb);
    const auto divide = [](std::int32_t a, std::int32_t b) {
        if (a == std::numeric_limits<std::int32_t>::min() && b == -1) a = -1;
        return a / b;
    };
    std::int32_t q = divide(ia, ib);
    const std::int32_t remainder = wrapping(std::int64_t{ia} - std::int64_t{ib} * q);
    const float sign = (fa > 0 ? 1.0f : fa < 0 ? -1.0f : 0.0f) * (fb > 0 ? 1.0f : -1.0f);
    if (sign < 0 && remainder != 0) q = wrapping(std::int64_t{q} - 1);
    return widened<T>(to_int32_as_javascript(static_cast<float>(q)));
}

// The largest f32 at most max(T) (2147483520 for i32), and likewise for the minimum.
template <class T>
float f32_bound(T limit) {
    const float f = static_cast<float>(limit);
    const auto exact = static_cast<long double>(limit), rounded = static_cast<long double>(f);
    const bool outside = limit > 0 ? rounded > exact : rounded < exact;
    return outside ? std::nextafter(f, 0.0f) : f;
}

// oneDNN's integer arithmetic: f32 operands, the f32 result rounded to nearest even
// (cvtps2dq) after saturation to the f32 bounds inside T.
template <class T>
std::optional<T> computed_in_f32(T x, T y, bool multiply) {
    if (!multiply && y == 0) return std::nullopt;
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    float r = multiply ? fx * fy : fx / fy;
    r = std::clamp(r, f32_bound(std::numeric_limits<T>::lowest()),
                   f32_bound(std::numeric_limits<T>::max()));
    return static_cast<T>(std::nearbyint(r));
}

// AArch64's f32 arithmetic and fcvtzs: the f32 product or quotient (floored where the op
// floors), truncated toward zero into i32 with saturation and NaN as 0, the i32 then wrapped
// into T (the low bits, as a narrowing xtn keeps them).
// TF.js webgpu's FLOOR_DIV (tf-backend-webgpu 4.22.0, binary_op_util.js): WGSL's f32 % is
// exact on integral operands (SwiftShader's OpFRem is fmod), round() ties to even.
float floor_quotient_from_remainder(float a, float b) {
    const float remainder = std::fmod(a, b);
    float q = (a - remainder) / b;
    if (remainder != 0 && std::signbit(remainder) != std::signbit(b)) q = q - 1.0f;
    return std::nearbyint(q);
}

template <class T>
T through_f32_and_i32(T x, T y, bool multiply, core::IntegerRounding rounding, bool clamped,
                      bool from_remainder) {
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    float r = multiply ? fx * fy : fx / fy;
    if (!multiply && core::floors(rounding))
        r = from_remainder ? floor_quotient_from_remainder(fx, fy) : std::floor(r);
    if (clamped && !std::isnan(r))
        r = std::clamp(r, -2147483648.0f, f32_bound(std::numeric_limits<std::int32_t>::max()));
    std::int32_t i = 0;
    if (r >= 2147483648.0f)
        i = std::numeric_limits<std::int32_t>::max();
    else if (r <= -2147483648.0f)
        i = std::numeric_limits<std::int32_t>::min();
    else if (!std::isnan(r))
        i = static_cast<std::int32_t>(r);  // truncates toward zero, inside i32's range here
    return widened<T>(i);
}

// An i64 quotient rounded to nearest f64 and back as cvttsd2si converts: 2^63, outside i64,
// gives the integer indefinite INT64_MIN. Other types' quotients are exact in f64.
template <class T>
T through_f64(T quotient) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        const double rounded = static_cast<double>(quotient);  // to nearest even (C++20 7.3.11)
        if (rounded >= 0x1p63) return std::numeric_limits<T>::min();
        return static_cast<T>(rounded);
    }
    return quotient;
}

template <class T>
std::optional<T> integer_step(const Model& m, T x, T y, bool multiply,
                              core::IntegerRounding rounding) {
    if (m.integers_computed_in_f32) return computed_in_f32(x, y, multiply);
    if (m.integers_through_f32_and_i32 || m.integers_through_f32_clamped_to_i32)
        return through_f32_and_i32(x, y, multiply, rounding, m.integers_through_f32_clamped_to_i32,
                                   m.floor_quotient_from_f32_remainder);
    if constexpr (sizeof(T) == 1) {
        if (multiply && m.products_through_i16_saturated) {
            const auto wide = static_cast<std::int16_t>(
                static_cast<std::uint16_t>(static_cast<unsigned>(x * y)));  // i16 wrap
            return std::clamp<int>(wide, std::numeric_limits<T>::lowest(),
                                   std::numeric_limits<T>::max());
        }
    }
    if (multiply && m.integer_multiplication_via_f32)
        return via_f32(x, y, true, rounding, m.f32_to_integer_wraps);
    if (multiply)
        return m.integer_results_saturated ? saturated_product(x, y) : reference::multiply(x, y);
    // Through f32 a zero divisor (one that became 0 in a narrower type) gives ±inf or NaN, which
    // converts to the integer indefinite; the spec's own x / 0 is never compared.
    if (m.integer_division_via_f32) return via_f32(x, y, false, rounding, m.f32_to_integer_wraps);
    if (m.integer_floor_division_of_rounded_f32 && core::floors(rounding))
        return webgl_floor_division(x, y);
    if (y == 0) return std::nullopt;
    if constexpr (std::is_signed_v<T>) {
        if (m.integer_results_saturated && x == std::numeric_limits<T>::min() && y == T(-1))
            return std::numeric_limits<T>::max();
    }
    const T quotient = reference::divide(x, y, rounding).value;
    if (m.truncated_quotient_through_f64 && !core::floors(rounding)) return through_f64(quotient);
    return quotient;
}

// The product (wrapped in T) or the exact quotient clamped into [INT32_MIN, INT32_MAX].
template <class T>
std::optional<T> saturated_to_i32(T x, T y, bool multiply, core::IntegerRounding rounding) {
    long double exact;
    if (multiply) {
        exact = static_cast<long double>(reference::multiply(x, y));  // wrapped in T first
    } else {
        if (y == 0) return std::nullopt;
        const reference::Quotient<T> q = reference::divide(x, y, rounding);
        exact = static_cast<long double>(q.value);
        if constexpr (std::is_signed_v<T>) {
            if (x == std::numeric_limits<T>::min() && y == T(-1))
                exact = -static_cast<long double>(x);  // the exact quotient, which wraps in T
        }
    }
    const long double clamped = std::clamp<long double>(exact, -2147483648.0L, 2147483647.0L);
    return static_cast<T>(static_cast<std::int64_t>(clamped));
}

template <class T>
std::optional<T> model_integer(const Model& m, T x, T y, bool multiply,
                               core::IntegerRounding rounding) {
    const bool floors = core::floors(rounding);
    if ((m.floor_for_trunc && !floors) || (m.trunc_for_floor && floors))
        rounding = core::other_rounding(rounding);
    if constexpr (sizeof(T) >= 4) {
        if (m.results_saturated_to_i32) return saturated_to_i32(x, y, multiply, rounding);
    }
    if constexpr (sizeof(T) >= 4 && !std::is_same_v<T, std::int32_t>) {
        if (m.computed_in_i32) {
            // Converted as a narrowing Convert does: the low 32 bits; the result sign-extended.
            const auto nx = static_cast<std::int32_t>(static_cast<std::uint32_t>(x));
            const auto ny = static_cast<std::int32_t>(static_cast<std::uint32_t>(y));
            const std::optional<std::int32_t> r = integer_step(m, nx, ny, multiply, rounding);
            if (!r) return std::nullopt;
            return static_cast<T>(
                static_cast<std::make_unsigned_t<T>>(static_cast<std::int64_t>(*r)));
        }
    }
    return integer_step(m, x, y, multiply, rounding);
}

// ---------------------------------------------------------------------------------------------

struct Constants {
    bool a = false, b = false;
};

template <class T>
std::optional<T> model_element(const Model& m, T x, T y, bool multiply,
                               core::IntegerRounding rounding, Constants constants) {
    if (constants.a) x = as_constant(m, x);
    if (constants.b) y = as_constant(m, y);
    Model folded = m;
    folded.reciprocal_is_constant = m.folded_result_is_constant && constants.b;
    std::optional<T> r;
    if constexpr (std::is_integral_v<T>)
        r = model_integer(m, x, y, multiply, rounding);
    else
        r = model_float(folded, x, y, multiply);
    if (r && m.folded_result_is_constant && constants.a && constants.b) r = as_constant(m, *r);
    return r;
}

}  // namespace

const std::vector<std::string_view>& behaviour_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> v;
        for (const NamedFlag& f : kFlags)
            v.push_back(f.name);
        return v;
    }();
    return names;
}

void add_behaviour(Model& m, std::string_view name) {
    for (const NamedFlag& f : kFlags)
        if (f.name == name) {
            m.*f.flag = true;
            return;
        }
    throw core::Error(core::ErrorKind::input, "unknown behaviour '" + std::string(name) + "'");
}

bool affects(const Model& m, core::ElementType type, bool multiply) {
    const bool floating = core::is_floating(type);
    if (m.f16_results_all_zero && type == core::ElementType::f16) return true;
    if (m.overflow_before_rounding &&
        (type == core::ElementType::f16 || type == core::ElementType::bf16))
        return true;
    if (m.legacy_broadcast_read_as_numpy || m.pdpd_axis_unset_read_as_zero || m.pdpd_axis_ignored)
        return true;
    if ((m.constant_subnormals_and_negative_zero_lost || m.constants_clamped_to_bf16_range) &&
        floating)
        return true;
    if (m.results_saturated_to_i32 && !floating && core::byte_size(type) >= 4) return true;
    if (m.wide_constants_saturated_to_i32 && !floating && core::byte_size(type) >= 4 &&
        type != core::ElementType::i32)
        return true;
    const bool narrow_float = type == core::ElementType::f16 || type == core::ElementType::bf16;
    if (floating) {
        return m.subnormal_inputs_zero || m.subnormal_results_flushed ||
               m.nan_results_negative_infinity || m.negative_zero_results_lost ||
               m.subnormal_results_flushed_before_rounding || m.infinities_clamped ||
               (m.equal_operands_divide_to_one && !multiply) ||
               (m.computed_in_f32 && type == core::ElementType::f64) ||
               ((m.computed_in_f16 || m.computed_in_bf16) && type == core::ElementType::f32) ||
               (!multiply && (m.division_by_reciprocal ||
                              (m.division_by_f32_reciprocal && type != core::ElementType::f64))) ||
               ((m.results_rounded_toward_zero || m.results_rounded_ties_away) && narrow_float);
    }
    const bool wide_int = core::byte_size(type) >= 4 && type != core::ElementType::i32;
    return m.integer_results_saturated || m.integers_computed_in_f32 ||
           m.integers_through_f32_and_i32 || m.integers_through_f32_clamped_to_i32 ||
           (m.products_through_i16_saturated && multiply && core::byte_size(type) == 1) ||
           (m.integer_multiplication_via_f32 && multiply) || (m.computed_in_i32 && wide_int) ||
           (!multiply && (m.integer_division_via_f32 || m.integer_floor_division_of_rounded_f32 ||
                          m.floor_for_trunc || m.trunc_for_floor)) ||
           (!multiply && m.truncated_quotient_through_f64 && type == core::ElementType::i64);
}

core::PreparedCall modelled_call(const Model& m, const core::OpVersion& op,
                                 const core::AttributeMap& attributes, const core::Tensor& a,
                                 const core::Tensor& b) {
    const auto rule = attributes.find("auto_broadcast");
    const bool pdpd = rule != attributes.end() &&
                      core::broadcast_rule_named(rule->second) == core::BroadcastRule::pdpd;
    if (m.pdpd_axis_unset_read_as_zero && pdpd && !attributes.count("auto_broadcast_axis")) {
        core::AttributeMap zero = attributes;
        zero["auto_broadcast_axis"] = "0";
        return core::prepare_call(op, zero, a, b);
    }
    if (m.pdpd_axis_ignored && pdpd) {
        core::AttributeMap trailing = attributes;
        trailing["auto_broadcast_axis"] = "-1";
        return core::prepare_call(op, trailing, a, b);
    }
    core::PreparedCall call = core::prepare_call(op, attributes, a, b);
    if (!m.legacy_broadcast_read_as_numpy ||
        call.config.broadcast.rule != core::BroadcastRule::onnx_legacy)
        return call;
    call.config.broadcast = core::BroadcastSpec{core::BroadcastRule::numpy, std::nullopt};
    call.plan = core::make_plan(a.shape, b.shape, call.config.broadcast);
    return call;
}

core::Tensor model_output(const Model& model, const core::PreparedCall& call, const core::Tensor& a,
                          const core::Tensor& b, std::string_view graph_form) {
    Model m = model;
    if (m.reciprocal_only_for_one_element_divisor && core::element_count(b.shape) != 1)
        m.division_by_reciprocal = m.division_by_f32_reciprocal = false;
    const bool multiply = call.op->arithmetic == core::Arithmetic::multiply;
    const Constants constants{graph_form == "const-a" || graph_form == "const-ab",
                              graph_form == "const-b" || graph_form == "const-ab"};
    core::Tensor out = core::Tensor::zeros(call.type, call.plan.output);
    if (m.f16_results_all_zero && call.type == core::ElementType::f16) return out;  // bits 0: +0
    core::dispatch(call.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            const auto x = a.values<T>(), y = b.values<T>();
            auto o = out.values<T>();
            core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
                const T xa = x[static_cast<std::size_t>(ia)], yb = y[static_cast<std::size_t>(ib)];
                const std::optional<T> r =
                    model_element(m, xa, yb, multiply, call.config.rounding, constants);
                o[static_cast<std::size_t>(i)] =
                    r ? *r
                      : (multiply ? reference::multiply(xa, yb)
                                  : reference::divide(xa, yb, call.config.rounding).value);
            });
        }
    });
    return out;
}

}  // namespace behaviours
