// Integer division in the AVX2 kernel set, bit for bit reference/divide.hpp, never trapping.
// Compiled with -mavx2 like kernels_avx2.cpp and entered only after cpu_supports(Isa::avx2).
//
// Why these paths (measured with bench/run_benchmark.sh --isa avx2, docs/measurements.md):
//  * 8- and 16-bit: the operands widened to f32 lanes, one vdivps per 8 quotients, floor by
//    vroundps. The float quotient is exact enough (integer_division.hpp); GCC's own vectorization
//    of the same formula spends most of its time widening the undefined-divisor flag.
//  * 32-bit: f64 lanes (vdivpd), the conversion back truncating.
//  * By one divisor (8 to 32 bits): multiply and shift (Granlund and Montgomery), no division.
//    64-bit by one divisor takes the f64 path too: 4x the scalar multiply-and-shift loop.
//  * 64-bit: f64 lanes where every operand of 4 lanes is below 2^51 in magnitude (exact
//    conversions by a magic-number add, AVX2 having no vcvtqq2pd); other vectors, INT64_MIN / -1
//    among them, take the scalar path of integer_division.hpp.
// A zero divisor lane divides by 1 and yields 0; the kernel reports it (kernels.hpp).
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

__m256i load(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
void store(void* p, __m256i v) {
    _mm256_storeu_si256(static_cast<__m256i*>(p), v);
}

// ---------------------------------------------------------------------------------------------
// 8 quotients in 32-bit lanes from f32 lanes, as int32: truncated by the conversion, or floored
// first (vroundps). Unsigned quotients are >= 0, where the two agree.

template <bool Floor>
__m256i quotient_f32(__m256 a, __m256 b) {
    __m256 q = _mm256_div_ps(a, b);
    if constexpr (Floor) q = _mm256_round_ps(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    return _mm256_cvttps_epi32(q);
}

// 8 bytes (the low 64 bits of v) as f32 lanes.
template <bool Signed>
__m256 bytes_to_f32(__m128i v) {
    return _mm256_cvtepi32_ps(Signed ? _mm256_cvtepi8_epi32(v) : _mm256_cvtepu8_epi32(v));
}
template <bool Signed>
__m256 words_to_f32(__m128i v) {
    return _mm256_cvtepi32_ps(Signed ? _mm256_cvtepi16_epi32(v) : _mm256_cvtepu16_epi32(v));
}

// The low 16 bits of each 32-bit lane, in order: the quotient wrapped modulo 2^16 (MIN / -1
// gives 2^15, i.e. MIN).
__m256i low_words(__m256i q0, __m256i q1) {
    const __m256i mask = _mm256_set1_epi32(0xFFFF);
    const __m256i packed =
        _mm256_packus_epi32(_mm256_and_si256(q0, mask), _mm256_and_si256(q1, mask));
    return _mm256_permute4x64_epi64(packed, _MM_SHUFFLE(3, 1, 2, 0));  // undo the in-lane pack
}

// 32 quotients of byte lanes; b has no zero lane.
template <bool Signed, bool Floor>
__m256i divide_bytes(__m256i a, __m256i b) {
    const __m128i al = _mm256_castsi256_si128(a), ah = _mm256_extracti128_si256(a, 1);
    const __m128i bl = _mm256_castsi256_si128(b), bh = _mm256_extracti128_si256(b, 1);
    const __m128i as[4] = {al, _mm_unpackhi_epi64(al, al), ah, _mm_unpackhi_epi64(ah, ah)};
    const __m128i bs[4] = {bl, _mm_unpackhi_epi64(bl, bl), bh, _mm_unpackhi_epi64(bh, bh)};
    __m256i q[4];
    for (int k = 0; k < 4; ++k)
        q[k] = quotient_f32 < Floor &&
               Signed > (bytes_to_f32<Signed>(as[k]), bytes_to_f32<Signed>(bs[k]));
    const __m256i mask = _mm256_set1_epi32(0xFF);  // wraps MIN / -1 = 128 to MIN
    for (__m256i& v : q)
        v = _mm256_and_si256(v, mask);
    // Packs work within 128-bit lanes: the dwords (4 quotients each) come out as 0 2 4 6 1 3 5 7.
    const __m256i bytes =
        _mm256_packus_epi16(_mm256_packus_epi32(q[0], q[1]), _mm256_packus_epi32(q[2], q[3]));
    return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// 16 quotients of 16-bit lanes; b has no zero lane.
template <bool Signed, bool Floor>
__m256i divide_words(__m256i a, __m256i b) {
    const __m128i al = _mm256_castsi256_si128(a), ah = _mm256_extracti128_si256(a, 1);
    const __m128i bl = _mm256_castsi256_si128(b), bh = _mm256_extracti128_si256(b, 1);
    return low_words(
        quotient_f32 < Floor && Signed > (words_to_f32<Signed>(al), words_to_f32<Signed>(bl)),
        quotient_f32 < Floor && Signed > (words_to_f32<Signed>(ah), words_to_f32<Signed>(bh)));
}

// ---------------------------------------------------------------------------------------------
// 32-bit lanes through f64. vcvttpd2dq turns 2^31 (INT32_MIN / -1) into 0x80000000, the
// integer indefinite, which is the wrapped INT32_MIN the spec asks for (docs/SEMANTICS.md
// section 2.4). u32 converts through a 2^31 bias (vcvtdq2pd and vcvttpd2dq are signed).

template <bool Signed>
__m256d dwords_to_f64(__m128i v) {
    if constexpr (Signed) {
        return _mm256_cvtepi32_pd(v);
    } else {
        const __m128i biased = _mm_xor_si128(v, _mm_set1_epi32(INT32_MIN));
        return _mm256_add_pd(_mm256_cvtepi32_pd(biased), _mm256_set1_pd(2147483648.0));
    }
}

template <bool Signed, bool Floor>
__m128i quotient_f64(__m256d a, __m256d b) {
    const __m256d q = _mm256_div_pd(a, b);
    if constexpr (Signed) {
        if constexpr (Floor) return _mm256_cvttpd_epi32(_mm256_floor_pd(q));
        return _mm256_cvttpd_epi32(q);
    } else {  // an integer below 2^32 first, so that removing the bias is exact
        const __m256d t = _mm256_round_pd(q, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        const __m128i biased = _mm256_cvttpd_epi32(_mm256_sub_pd(t, _mm256_set1_pd(2147483648.0)));
        return _mm_xor_si128(biased, _mm_set1_epi32(INT32_MIN));
    }
}

// 8 quotients of 32-bit lanes; b has no zero lane.
template <bool Signed, bool Floor>
__m256i divide_dwords(__m256i a, __m256i b) {
    const __m128i lo =
        quotient_f64<Signed, Floor>(dwords_to_f64<Signed>(_mm256_castsi256_si128(a)),
                                    dwords_to_f64<Signed>(_mm256_castsi256_si128(b)));
    const __m128i hi =
        quotient_f64<Signed, Floor>(dwords_to_f64<Signed>(_mm256_extracti128_si256(a, 1)),
                                    dwords_to_f64<Signed>(_mm256_extracti128_si256(b, 1)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// ---------------------------------------------------------------------------------------------
// 64-bit lanes through f64 where |x| < 2^51: 2^52 + 2^51 + x has x in its mantissa field, so
// adding the bits of 1.5 * 2^52 and subtracting it as a double converts exactly both ways.

inline constexpr std::int64_t kMagicBits = 0x4338000000000000;  // 1.5 * 2^52
inline constexpr double kMagic = 0x1.8p52;

__m256d qwords_to_f64(__m256i v) {
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(v, _mm256_set1_epi64x(kMagicBits))),
                         _mm256_set1_pd(kMagic));
}
__m256i integral_f64_to_qwords(__m256d v) {
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v, _mm256_set1_pd(kMagic))),
                            _mm256_set1_epi64x(kMagicBits));
}

// Whether every lane of a and b lies in (-2^51, 2^51) (signed) or [0, 2^51) (unsigned).
template <bool Signed>
bool fit_f64(__m256i a, __m256i b) {
    const __m256i bias = _mm256_set1_epi64x(Signed ? std::int64_t{1} << 51 : 0);
    const __m256i high =
        _mm256_or_si256(_mm256_srli_epi64(_mm256_add_epi64(a, bias), Signed ? 52 : 51),
                        _mm256_srli_epi64(_mm256_add_epi64(b, bias), Signed ? 52 : 51));
    return _mm256_testz_si256(high, high) != 0;
}

template <bool Signed, bool Floor>
__m256i divide_qwords(__m256i a, __m256i b) {
    const __m256d q = _mm256_div_pd(qwords_to_f64(a), qwords_to_f64(b));
    constexpr int kMode =
        (Floor && Signed ? _MM_FROUND_TO_NEG_INF : _MM_FROUND_TO_ZERO) | _MM_FROUND_NO_EXC;
    return integral_f64_to_qwords(_mm256_round_pd(q, kMode));
}

// ---------------------------------------------------------------------------------------------
// The kernels: one loop for the three operand shapes and four lane widths.

template <class T>
__m256i broadcast(T v) {
    if constexpr (sizeof(T) == 1) return _mm256_set1_epi8(static_cast<char>(v));
    if constexpr (sizeof(T) == 2) return _mm256_set1_epi16(static_cast<short>(v));
    if constexpr (sizeof(T) == 4) return _mm256_set1_epi32(static_cast<int>(v));
    if constexpr (sizeof(T) == 8) return _mm256_set1_epi64x(static_cast<long long>(v));
}

template <class T>
__m256i zero_lanes(__m256i v) {
    const __m256i zero = _mm256_setzero_si256();
    if constexpr (sizeof(T) == 1) return _mm256_cmpeq_epi8(v, zero);
    if constexpr (sizeof(T) == 2) return _mm256_cmpeq_epi16(v, zero);
    if constexpr (sizeof(T) == 4) return _mm256_cmpeq_epi32(v, zero);
    if constexpr (sizeof(T) == 8) return _mm256_cmpeq_epi64(v, zero);
}

template <bool Floor, class T>
__m256i divide_lanes(__m256i a, __m256i b) {
    constexpr bool kSigned = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return divide_bytes<kSigned, Floor>(a, b);
    if constexpr (sizeof(T) == 2) return divide_words<kSigned, Floor>(a, b);
    if constexpr (sizeof(T) == 4) return divide_dwords<kSigned, Floor>(a, b);
    if constexpr (sizeof(T) == 8) return divide_qwords<kSigned, Floor>(a, b);
}

template <Operation Op, Operands Shape, class T>
bool divide_kernel(const T* a, const T* b, T* out, std::int64_t n) {
    constexpr bool kFloor = Op == Operation::divide_floor;
    constexpr std::int64_t kLanes = 32 / sizeof(T);
    const __m256i a1 = broadcast(a[0]), b1 = broadcast(b[0]), one = broadcast(T(1));
    __m256i undefined = _mm256_setzero_si256();
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const __m256i va = kScalarA<Shape> ? a1 : load(a + i);
        const __m256i vb = kScalarB<Shape> ? b1 : load(b + i);
        const __m256i zero = zero_lanes<T>(vb);
        undefined = _mm256_or_si256(undefined, zero);
        const __m256i divisor = _mm256_blendv_epi8(vb, one, zero);
        if constexpr (sizeof(T) == 8) {
            if (!fit_f64<std::is_signed_v<T>>(va, divisor)) {
                divide_rest<Op, Shape>(a, b, out, i, i + kLanes);
                continue;
            }
        }
        store(out + i, _mm256_andnot_si256(zero, divide_lanes<kFloor, T>(va, divisor)));
    }
    const bool rest = divide_rest<Op, Shape>(a, b, out, i, n);
    return rest || !_mm256_testz_si256(undefined, undefined);
}

// ---------------------------------------------------------------------------------------------
// 32-bit integer division by one invariant divisor d != 0: multiply and shift instead of
// vdivpd (Granlund and Montgomery, "Division by invariant integers using multiplication",
// PLDI 1994, fig. 4.1, the unsigned round-up method that holds for every n < 2^32): with
// l = ceil(log2 e), m = floor(2^32·(2^l - e)/e) + 1 < 2^32 and t = mulhi(m, n),
// n / e = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0). e = 1 gives m = 1, t = 0, n / 1 = n.
struct InvariantDivisor32 {
    __m256i multiplier;  // m in every lane (vpmuludq reads the low dword of each qword)
    __m128i shift1;      // shift counts for vpsrld
    __m128i shift2;
};

InvariantDivisor32 invariant_divisor32(std::uint32_t e) {
    const int l = e == 1 ? 0 : 32 - __builtin_clz(e - 1);    // 0..32
    const std::uint64_t span = (std::uint64_t{1} << l) - e;  // < e
    const auto m = static_cast<std::uint32_t>((span << 32) / e + 1);
    return {_mm256_set1_epi32(static_cast<int>(m)), _mm_cvtsi32_si128(l < 1 ? l : 1),
            _mm_cvtsi32_si128(l > 1 ? l - 1 : 0)};
}

// n / e for 8 unsigned lanes.
__m256i divide8(__m256i n, const InvariantDivisor32& d) {
    // High halves of the 32x32 -> 64 products: even lanes, then odd lanes, merged.
    const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(n, d.multiplier), 32);
    const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(n, 32), d.multiplier);
    const __m256i t = _mm256_blend_epi32(even, odd, 0xAA);
    const __m256i sum = _mm256_add_epi32(t, _mm256_srl_epi32(_mm256_sub_epi32(n, t), d.shift1));
    return _mm256_srl_epi32(sum, d.shift2);
}

// Signed, as unsigned division of a magnitude that fits 32 bits, with sign mask dm of d
// (0 or -1) and e = |d| (2^31 for MIN):
//  * truncation: q = ±(|a| / e), negated modulo 2^32 when the signs differ (vpabsd makes
//    |MIN| = 0x80000000 = 2^31 read unsigned; MIN / -1 gives 2^31, i.e. MIN, the wrap);
//  * floor, d > 0: a >= 0 gives a / e; a < 0 gives ~(~a / e) = -((-a - 1) / e) - 1;
//    d < 0, floor(a/d) = floor(-a/e): a <= 0 gives (-a) / e (-MIN = 2^31 unsigned; MIN / -1
//    again 2^31 = MIN); a > 0 gives ~((a - 1) / e). Uniformly, with c = (d < 0) and
//    s = (a < c): u = (a - c) ^ s, q = (u / e) ^ s ^ dm.
template <bool Floor>
__m256i divide8_signed(__m256i a, const InvariantDivisor32& d, __m256i dm, __m256i c) {
    if constexpr (Floor) {
        const __m256i s = _mm256_cmpgt_epi32(c, a);
        const __m256i u = _mm256_xor_si256(_mm256_sub_epi32(a, c), s);
        return _mm256_xor_si256(divide8(u, d), _mm256_xor_si256(s, dm));
    } else {
        const __m256i negative = _mm256_xor_si256(_mm256_srai_epi32(a, 31), dm);
        const __m256i q = divide8(_mm256_abs_epi32(a), d);
        return _mm256_sub_epi32(_mm256_xor_si256(q, negative), negative);
    }
}

template <Operation Op, class T>
bool divide_by_invariant32(const T* a, const T* b, T* out, std::int64_t n) {
    constexpr bool kFloor = Op == Operation::divide_floor;
    const T y = b[0];
    if (y == T(0)) {  // every element undefined; their slots hold 0
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = T(0);
        return n > 0;
    }
    bool negative = false;
    if constexpr (std::is_signed_v<T>) negative = y < T(0);
    const auto magnitude = static_cast<std::uint32_t>(y);
    const InvariantDivisor32 divisor = invariant_divisor32(negative ? 0u - magnitude : magnitude);
    const __m256i dm = _mm256_set1_epi32(negative ? -1 : 0);
    const __m256i c = _mm256_set1_epi32(negative ? 1 : 0);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i va = load(a + i);
        if constexpr (std::is_signed_v<T>) {
            store(out + i, divide8_signed<kFloor>(va, divisor, dm, c));
        } else {
            store(out + i, divide8(va, divisor));
        }
    }
    for (; i < n; ++i)
        out[i] = compute<Op>(a[i], y);
    return false;
}

// ---------------------------------------------------------------------------------------------
// 8- and 16-bit division by one invariant divisor: the same method in 16-bit lanes (vpmulhuw),
// for every n < 2^16: with l = ceil(log2 e), m = floor(2^16·(2^l - e)/e) + 1 < 2^16,
// t = mulhi(m, n), n / e = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0). Bytes are widened to
// 16-bit lanes first; signed lanes use the magnitudes of divide8_signed above, in 16 bits (|MIN|
// of i16 is 2^15, which fits unsigned).
struct InvariantDivisor16 {
    __m256i multiplier;
    __m128i shift1, shift2;
};

InvariantDivisor16 invariant_divisor16(std::uint32_t e) {
    const int l = e == 1 ? 0 : 32 - __builtin_clz(e - 1);  // 0..16
    const std::uint32_t span = (std::uint32_t{1} << l) - e;
    const auto m = static_cast<std::uint16_t>((span << 16) / e + 1);
    return {_mm256_set1_epi16(static_cast<short>(m)), _mm_cvtsi32_si128(l < 1 ? l : 1),
            _mm_cvtsi32_si128(l > 1 ? l - 1 : 0)};
}

__m256i divide16(__m256i n, const InvariantDivisor16& d) {
    const __m256i t = _mm256_mulhi_epu16(n, d.multiplier);
    const __m256i sum = _mm256_add_epi16(t, _mm256_srl_epi16(_mm256_sub_epi16(n, t), d.shift1));
    return _mm256_srl_epi16(sum, d.shift2);
}

template <bool Signed, bool Floor>
__m256i divide16_by(__m256i a, const InvariantDivisor16& d, __m256i dm, __m256i c) {
    if constexpr (!Signed) {
        return divide16(a, d);
    } else if constexpr (Floor) {
        const __m256i s = _mm256_cmpgt_epi16(c, a);
        const __m256i u = _mm256_xor_si256(_mm256_sub_epi16(a, c), s);
        return _mm256_xor_si256(divide16(u, d), _mm256_xor_si256(s, dm));
    } else {
        const __m256i negative = _mm256_xor_si256(_mm256_srai_epi16(a, 15), dm);
        const __m256i q = divide16(_mm256_abs_epi16(a), d);
        return _mm256_sub_epi16(_mm256_xor_si256(q, negative), negative);
    }
}

template <bool Signed>
__m256i bytes_to_words(__m128i v) {
    return Signed ? _mm256_cvtepi8_epi16(v) : _mm256_cvtepu8_epi16(v);
}

template <Operation Op, class T>
bool divide_by_invariant16(const T* a, const T* b, T* out, std::int64_t n) {
    constexpr bool kFloor = Op == Operation::divide_floor, kSigned = std::is_signed_v<T>;
    const T y = b[0];
    if (y == T(0)) {  // every element undefined; their slots hold 0
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = T(0);
        return n > 0;
    }
    const bool negative = kSigned && y < T(0);
    const std::int32_t wide = y;
    const InvariantDivisor16 d =
        invariant_divisor16(static_cast<std::uint32_t>(negative ? -wide : wide));
    const __m256i dm = _mm256_set1_epi16(negative ? -1 : 0),
                  c = _mm256_set1_epi16(negative ? 1 : 0);
    std::int64_t i = 0;
    for (; i + 32 / static_cast<std::int64_t>(sizeof(T)) <= n; i += 32 / sizeof(T)) {
        const __m256i va = load(a + i);
        if constexpr (sizeof(T) == 2) {
            store(out + i, divide16_by<kSigned, kFloor>(va, d, dm, c));
        } else {  // two halves in 16-bit lanes, each wrapped to its low byte, packed back
            const __m256i mask = _mm256_set1_epi16(0xFF);
            const __m256i lo =
                _mm256_and_si256(divide16_by<kSigned, kFloor>(
                                     bytes_to_words<kSigned>(_mm256_castsi256_si128(va)), d, dm, c),
                                 mask);
            const __m256i hi = _mm256_and_si256(
                divide16_by<kSigned, kFloor>(
                    bytes_to_words<kSigned>(_mm256_extracti128_si256(va, 1)), d, dm, c),
                mask);
            store(out + i,
                  _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), _MM_SHUFFLE(3, 1, 2, 0)));
        }
    }
    for (; i < n; ++i)
        out[i] = compute<Op>(a[i], y);
    return false;
}

}  // namespace

template <class T>
void use_avx2_division(KernelTable<T>& table) {
    const auto row = [&]<Operation Op>() {
        auto& r = table.kernels[static_cast<int>(Op)];
        r[static_cast<int>(Operands::vector_vector)] =
            divide_kernel<Op, Operands::vector_vector, T>;
        r[static_cast<int>(Operands::scalar_vector)] =
            divide_kernel<Op, Operands::scalar_vector, T>;
        // By one divisor, multiply and shift; 64-bit through f64 as well (4x the scalar
        // multiply-and-shift loop of kernel_loops.hpp, which the AVX2 set has no 64-bit mulhi for).
        if constexpr (sizeof(T) == 4)
            r[static_cast<int>(Operands::vector_scalar)] = divide_by_invariant32<Op, T>;
        else if constexpr (sizeof(T) <= 2)
            r[static_cast<int>(Operands::vector_scalar)] = divide_by_invariant16<Op, T>;
        else
            r[static_cast<int>(Operands::vector_scalar)] =
                divide_kernel<Op, Operands::vector_scalar, T>;
    };
    row.template operator()<Operation::divide_truncate>();
    row.template operator()<Operation::divide_floor>();
}

template void use_avx2_division(KernelTable<std::int8_t>&);
template void use_avx2_division(KernelTable<std::int16_t>&);
template void use_avx2_division(KernelTable<std::int32_t>&);
template void use_avx2_division(KernelTable<std::int64_t>&);
template void use_avx2_division(KernelTable<std::uint8_t>&);
template void use_avx2_division(KernelTable<std::uint16_t>&);
template void use_avx2_division(KernelTable<std::uint32_t>&);
template void use_avx2_division(KernelTable<std::uint64_t>&);

}  // namespace optimized
