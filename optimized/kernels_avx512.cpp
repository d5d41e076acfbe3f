// The AVX-512 kernel set (F, BW, DQ, VL, VBMI). This file alone is compiled with those flags
// and 512-bit vectors preferred (see CMakeLists.txt), and is only entered after
// cpu_supports(Isa::avx512). The loop kernels are the portable templates recompiled for 512-bit
// vectors; new here are bf16 in 512-bit lanes (bf16_avx512.hpp; with AVX512-BF16 see
// kernels_avx512_bf16.cpp), 64-bit division through f64 where the operands fit 53 bits, and
// 8-bit division by a 256-entry reciprocal table looked up with vpermi2b. f16
// and i32 / u32 division by one divisor reuse the AVX2 kernels, which already keep up with
// memory. -ffp-contract=off keeps FMA out of every result.
#include <immintrin.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "core/half_float.hpp"
#include "optimized/bf16_avx512.hpp"
#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

using core::BFloat16;

// ---------------------------------------------------------------------------------------------
// 64-bit division through f64. When |a| < 2^53 and 0 < |b| < 2^53 both convert exactly and the
// argument of integer_division.hpp holds with p = 53: trunc and floor of the rounded quotient
// are those of the exact one. A vector with any lane outside that range takes the scalar path
// (integer_division.hpp), so INT64_MIN / -1 and huge operands stay exact. A zero divisor lane
// divides by 1 and yields 0 (undefined, reported by the return value).

inline constexpr std::uint64_t kF64Exact = std::uint64_t{1} << 53;

template <class T>
__mmask8 fits_f64(__m512i v) {
    const __m512i magnitude = std::is_signed_v<T> ? _mm512_abs_epi64(v) : v;  // |MIN| = 2^63
    return _mm512_cmplt_epu64_mask(magnitude, _mm512_set1_epi64(kF64Exact));
}

template <class T>
__m512d to_f64(__m512i v) {
    return std::is_signed_v<T> ? _mm512_cvtepi64_pd(v) : _mm512_cvtepu64_pd(v);
}

template <bool Floor, class T>
__m512i divide_f64(__m512i a, __m512i b, __mmask8 zero) {
    const __m512i divisor = _mm512_mask_mov_epi64(b, zero, _mm512_set1_epi64(1));
    __m512d q = _mm512_div_pd(to_f64<T>(a), to_f64<T>(divisor));
    if constexpr (Floor && std::is_signed_v<T>)
        q = _mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m512i t = std::is_signed_v<T> ? _mm512_cvttpd_epi64(q) : _mm512_cvttpd_epu64(q);
    return _mm512_maskz_mov_epi64(static_cast<__mmask8>(~zero), t);
}

template <Operation Op, Operands Shape, class T>
bool divide64_kernel(const T* a, const T* b, T* out, std::int64_t n) {
    constexpr bool kFloor = Op == Operation::divide_floor;
    const __m512i a1 = _mm512_set1_epi64(static_cast<long long>(a[0]));
    const __m512i b1 = _mm512_set1_epi64(static_cast<long long>(b[0]));
    __mmask8 undefined = 0;
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m512i va = kScalarA<Shape> ? a1 : load512(a + i);
        const __m512i vb = kScalarB<Shape> ? b1 : load512(b + i);
        const __mmask8 zero = _mm512_testn_epi64_mask(vb, vb);
        undefined |= zero;
        if ((fits_f64<T>(va) & fits_f64<T>(vb)) == 0xFF) {
            store512(out + i, divide_f64<kFloor, T>(va, vb, zero));
        } else {
            for (std::int64_t j = i; j < i + 8; ++j)
                out[j] = compute<Op>(kScalarA<Shape> ? a[0] : a[j], kScalarB<Shape> ? b[0] : b[j]);
        }
    }
    return divide_rest<Op, Shape>(a, b, out, i, n) || undefined != 0;
}

// ---------------------------------------------------------------------------------------------
// 8-bit division by table. For a numerator n <= 255 and a divisor magnitude 2 <= e <= 255 with
// m = ceil(2^16 / e) < 2^16: n·m / 2^16 = n/e + n·(m - 2^16/e) / 2^16, and the excess is below
// n / 2^16 < 1/256 <= 1/e, less than the distance from n/e up to the next integer. So
// floor(n / e) = (n·m) >> 16, the high half of a 16-bit product (vpmulhuw). e = 1 (m = 2^16)
// returns n; e = 0 has m = 0 and returns 0. The exhaustive 8-bit tests check every pair.
//
// The table is indexed by the divisor's byte: for i8 the magnitude of the signed byte (128 for
// -128). 256 entries of 16 bits are four 128-byte tables (low and high bytes, each for indices
// 0-127 and 128-255), looked up with vpermi2b on the low 7 bits, chosen by the top bit.
struct ByteReciprocals {
    __m512i low[4];   // low bytes of m: indices 0-63, 64-127, 128-191, 192-255
    __m512i high[4];  // high bytes of m
};

template <class T>
ByteReciprocals byte_reciprocals() {
    alignas(64) std::uint8_t low[256], high[256];
    for (int v = 0; v < 256; ++v) {
        const int e =
            std::is_signed_v<T> ? std::abs(static_cast<int>(static_cast<std::int8_t>(v))) : v;
        const int m = e < 2 ? 0 : (65536 + e - 1) / e;
        low[v] = static_cast<std::uint8_t>(m & 0xFF);
        high[v] = static_cast<std::uint8_t>(m >> 8);
    }
    ByteReciprocals r;
    for (int k = 0; k < 4; ++k) {
        r.low[k] = load512(low + 64 * k);
        r.high[k] = load512(high + 64 * k);
    }
    return r;
}

__m512i lookup256(const __m512i (&table)[4], __m512i index) {
    const __m512i first = _mm512_permutex2var_epi8(table[0], index, table[1]);
    const __m512i second = _mm512_permutex2var_epi8(table[2], index, table[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), first, second);
}

// floor(n / e) in 64 byte lanes, e given by the divisor bytes d through the table; `unit` marks
// the lanes where e = 1. Unpacking interleaves within 128-bit lanes and packing undoes it.
__m512i divide_bytes(__m512i n, __m512i d, __mmask64 unit, const ByteReciprocals& r) {
    const __m512i m_low = lookup256(r.low, d), m_high = lookup256(r.high, d);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i q_lo =
        _mm512_mulhi_epu16(_mm512_unpacklo_epi8(n, zero), _mm512_unpacklo_epi8(m_low, m_high));
    const __m512i q_hi =
        _mm512_mulhi_epu16(_mm512_unpackhi_epi8(n, zero), _mm512_unpackhi_epi8(m_low, m_high));
    return _mm512_mask_blend_epi8(unit, _mm512_packus_epi16(q_lo, q_hi), n);  // q <= 255
}

// Signed quotients from unsigned ones (as divide8_signed in kernels_avx2.cpp):
//  * truncation: |a| / |b|, negated modulo 2^8 where the signs differ (|-128| = 128 unsigned,
//    and -128 / -1 = 128 wraps to -128);
//  * floor: with c = (b < 0) and s = (a < c), u = (a - c) ^ s and q = (u / |b|) ^ s ^ (b < 0).
template <bool Floor>
__m512i divide_signed_bytes(__m512i a, __m512i b, const ByteReciprocals& r) {
    const __m512i ones = _mm512_set1_epi8(-1);
    const __mmask64 unit =
        _mm512_cmpeq_epi8_mask(b, _mm512_set1_epi8(1)) | _mm512_cmpeq_epi8_mask(b, ones);
    const __mmask64 b_negative = _mm512_movepi8_mask(b);
    if constexpr (Floor) {
        const __m512i c = _mm512_maskz_set1_epi8(b_negative, 1);
        const __mmask64 s = _mm512_cmplt_epi8_mask(a, c);
        const __m512i d = _mm512_sub_epi8(a, c);
        const __m512i u = _mm512_mask_sub_epi8(d, s, ones, d);  // -1 - x = ~x
        const __m512i q = divide_bytes(u, b, unit, r);
        return _mm512_mask_sub_epi8(q, s ^ b_negative, ones, q);
    } else {
        const __m512i q = divide_bytes(_mm512_abs_epi8(a), b, unit, r);
        const __mmask64 negative = _mm512_movepi8_mask(_mm512_xor_si512(a, b));
        return _mm512_mask_sub_epi8(q, negative, _mm512_setzero_si512(), q);
    }
}

template <Operation Op, Operands Shape, class T>
bool divide8_kernel(const T* a, const T* b, T* out, std::int64_t n) {
    static const ByteReciprocals r = byte_reciprocals<T>();
    const __m512i a1 = _mm512_set1_epi8(static_cast<char>(a[0]));
    const __m512i b1 = _mm512_set1_epi8(static_cast<char>(b[0]));
    __mmask64 undefined = 0;
    std::int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512i va = kScalarA<Shape> ? a1 : load512(a + i);
        const __m512i vb = kScalarB<Shape> ? b1 : load512(b + i);
        const __mmask64 zero = _mm512_testn_epi8_mask(vb, vb);
        undefined |= zero;
        if constexpr (std::is_signed_v<T>) {  // the floor's sign fix would turn 0 into -1
            const __m512i q = divide_signed_bytes<Op == Operation::divide_floor>(va, vb, r);
            store512(out + i, _mm512_maskz_mov_epi8(~zero, q));
        } else {  // m = 0 gives quotient 0 where b = 0
            const __mmask64 unit = _mm512_cmpeq_epi8_mask(vb, _mm512_set1_epi8(1));
            store512(out + i, divide_bytes(va, vb, unit, r));
        }
    }
    return divide_rest<Op, Shape>(a, b, out, i, n) || undefined != 0;
}

// The 512-bit loops with both division rows replaced by `division`'s.
template <class T>
KernelTable<T> with_division(const KernelTable<T>& division) {
    KernelTable<T> table = loop_kernels<T>();
    for (const Operation op : {Operation::divide_truncate, Operation::divide_floor})
        table.kernels[static_cast<int>(op)] = division.kernels[static_cast<int>(op)];
    return table;
}

// i32 / u32: the 512-bit loops, but division by one divisor as in the AVX2 set.
template <class T>
KernelTable<T> int32_kernels() {
    KernelTable<T> table = loop_kernels<T>();
    constexpr int kVs = static_cast<int>(Operands::vector_scalar);
    for (const Operation op : {Operation::divide_truncate, Operation::divide_floor})
        table.kernels[static_cast<int>(op)][kVs] =
            avx2_kernels<T>().get(op, Operands::vector_scalar);
    return table;
}

}  // namespace

const KernelTable<BFloat16>& avx512_integer_bf16_kernels() {
    static const KernelTable<BFloat16> table =
        table_of<BFloat16>([]<Operation Op, Operands Shape>() -> Kernel<BFloat16> {
            return bf16_blocks<Op, Shape, round_block>;
        });
    return table;
}

template <class T>
const KernelTable<T>& avx512_kernels() {
    static const KernelTable<T> table = [] {
        if constexpr (std::is_same_v<T, core::Half>) {
            return avx2_kernels<T>();  // F16C converts 8 lanes; that already matches memory
        } else if constexpr (std::is_same_v<T, BFloat16>) {
            if (__builtin_cpu_supports("avx512bf16")) return avx512_bf16_kernels();
            return avx512_integer_bf16_kernels();
        } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
            return with_division<T>(table_of<T>([]<Operation Op, Operands Shape>() -> Kernel<T> {
                return divide8_kernel<Op, Shape, T>;
            }));
        } else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
            return int32_kernels<T>();
        } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
            return with_division<T>(table_of<T>([]<Operation Op, Operands Shape>() -> Kernel<T> {
                return divide64_kernel<Op, Shape, T>;
            }));
        } else {
            return loop_kernels<T>();
        }
    }();
    return table;
}

template const KernelTable<std::int8_t>& avx512_kernels();
template const KernelTable<std::int16_t>& avx512_kernels();
template const KernelTable<std::int32_t>& avx512_kernels();
template const KernelTable<std::int64_t>& avx512_kernels();
template const KernelTable<std::uint8_t>& avx512_kernels();
template const KernelTable<std::uint16_t>& avx512_kernels();
template const KernelTable<std::uint32_t>& avx512_kernels();
template const KernelTable<std::uint64_t>& avx512_kernels();
template const KernelTable<core::Half>& avx512_kernels();
template const KernelTable<BFloat16>& avx512_kernels();
template const KernelTable<float>& avx512_kernels();
template const KernelTable<double>& avx512_kernels();

}  // namespace optimized
