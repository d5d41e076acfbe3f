// The AVX2 kernel set. This file alone is compiled with -mavx2 -mf16c -mfma (see
// CMakeLists.txt) and is only entered after cpu_supports(Isa::avx2). The loop kernels are the
// portable templates recompiled for AVX2 (they have internal linkage, so no AVX2 copy can replace a
// baseline one at link time), except i32 / u32 division by one divisor, which multiplies and
// shifts with magic numbers instead of dividing in f64; f16 converts in registers with F16C, bf16
// with shifts and masks in 32-bit lanes. -ffp-contract=off keeps FMA out of every result.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "core/half_float.hpp"
#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

using core::BFloat16;
using core::Half;

// vcvtph2ps is exact; vcvtps2ph with imm 0 rounds to nearest even with gradual underflow,
// overflow to inf, and NaN kept NaN with its top payload bits and the quiet bit set: the same
// bits as core::half_from_float.
__m256 load8(const Half* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
void store8(Half* p, __m256 v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}
float load1(const Half* p) {
    return _cvtsh_ss(p->bits);
}
void store1(Half* p, float v) {
    p->bits = _cvtss_sh(v, _MM_FROUND_TO_NEAREST_INT);
}

template <Operation Op>
__m256 apply8(__m256 a, __m256 b) {
    return Op == Operation::multiply ? _mm256_mul_ps(a, b) : _mm256_div_ps(a, b);
}
template <Operation Op>
float apply1(float a, float b) {
    return Op == Operation::multiply ? a * b : a / b;
}

// One kernel body for the three operand shapes; a scalar operand is widened once.
template <Operation Op, Operands Shape>
bool f16_kernel(const Half* a, const Half* b, Half* out, std::int64_t n) {
    constexpr bool kScalarA = Shape == Operands::scalar_vector;
    constexpr bool kScalarB = Shape == Operands::vector_scalar;
    const float a1 = load1(a), b1 = load1(b);
    const __m256 a8 = _mm256_set1_ps(a1), b8 = _mm256_set1_ps(b1);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        store8(out + i, apply8<Op>(kScalarA ? a8 : load8(a + i), kScalarB ? b8 : load8(b + i)));
    for (; i < n; ++i)
        store1(out + i, apply1<Op>(kScalarA ? a1 : load1(a + i), kScalarB ? b1 : load1(b + i)));
    return false;
}

// bf16 in 32-bit lanes: 16 values per 256 bits, the even ones in the low halves of the lanes,
// the odd ones in the high halves. Widening is a shift (even) or a mask (odd); the results go
// back to the same halves, so no pack or permute is needed.
__m256i even_f32(__m256i v) {
    return _mm256_slli_epi32(v, 16);
}
__m256i odd_f32(__m256i v) {
    return _mm256_and_si256(v, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u)));
}

// f32 bits -> bf16 in the high half of each lane, bit-identical to f32_to_bf16 (and
// core::bfloat16_from_float): round to nearest even as bits + 0x7FFF + ((bits >> 16) & 1), or
// for NaN (|bits| > 0x7F800000) the bits with the quiet bit 0x00400000 set. The low half of
// each lane is garbage.
__m256i round_to_bf16_high(__m256 x) {
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), lsb);
    const __m256i nan = _mm256_or_si256(bits, _mm256_set1_epi32(0x00400000));
    // Unordered with itself exactly when NaN (|bits| > 0x7F800000); a quiet compare.
    const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    return _mm256_blendv_epi8(rounded, nan, is_nan);
}

template <Operation Op>
__m256 apply8i(__m256i a, __m256i b) {
    return apply8<Op>(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
}

template <Operation Op, Operands Shape>
bool bf16_kernel(const BFloat16* a, const BFloat16* b, BFloat16* out, std::int64_t n) {
    constexpr bool kScalarA = Shape == Operands::scalar_vector;
    constexpr bool kScalarB = Shape == Operands::vector_scalar;
    constexpr Operation kOp = Op == Operation::multiply ? Op : Operation::divide_truncate;
    // A scalar operand is the same value in both halves: its f32 bits fill every lane.
    const __m256i a1 = _mm256_set1_epi32(static_cast<int>(std::uint32_t(a[0].bits) << 16));
    const __m256i b1 = _mm256_set1_epi32(static_cast<int>(std::uint32_t(b[0].bits) << 16));
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i va =
            kScalarA ? a1 : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
        const __m256i vb =
            kScalarB ? b1 : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
        const __m256 even =
            apply8i<kOp>(kScalarA ? a1 : even_f32(va), kScalarB ? b1 : even_f32(vb));
        const __m256 odd = apply8i<kOp>(kScalarA ? a1 : odd_f32(va), kScalarB ? b1 : odd_f32(vb));
        const __m256i result = _mm256_or_si256(_mm256_srli_epi32(round_to_bf16_high(even), 16),
                                               odd_f32(round_to_bf16_high(odd)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), result);
    }
    for (; i < n; ++i)
        out[i] = compute<kOp>(kScalarA ? a[0] : a[i], kScalarB ? b[0] : b[i]);
    return false;
}

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
        const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
        __m256i q;
        if constexpr (std::is_signed_v<T>) {
            q = divide8_signed<kFloor>(va, divisor, dm, c);
        } else {
            q = divide8(va, divisor);
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), q);
    }
    for (; i < n; ++i)
        out[i] = compute<Op>(a[i], y);
    return false;
}

template <class T>
KernelTable<T> int32_kernels() {
    KernelTable<T> table = loop_kernels<T>();
    constexpr int kVs = static_cast<int>(Operands::vector_scalar);
    table.kernels[static_cast<int>(Operation::divide_truncate)][kVs] =
        divide_by_invariant32<Operation::divide_truncate, T>;
    table.kernels[static_cast<int>(Operation::divide_floor)][kVs] =
        divide_by_invariant32<Operation::divide_floor, T>;
    return table;
}

}  // namespace

template <class T>
const KernelTable<T>& avx2_kernels() {
    static const KernelTable<T> table = loop_kernels<T>();
    return table;
}

template <>
const KernelTable<Half>& avx2_kernels() {
    static const KernelTable<Half> table = table_of<Half>(
        []<Operation Op, Operands Shape>() -> Kernel<Half> { return f16_kernel<Op, Shape>; });
    return table;
}

template <>
const KernelTable<std::int32_t>& avx2_kernels() {
    static const KernelTable<std::int32_t> table = int32_kernels<std::int32_t>();
    return table;
}

template <>
const KernelTable<std::uint32_t>& avx2_kernels() {
    static const KernelTable<std::uint32_t> table = int32_kernels<std::uint32_t>();
    return table;
}

template <>
const KernelTable<BFloat16>& avx2_kernels() {
    static const KernelTable<BFloat16> table = table_of<BFloat16>(
        []<Operation Op, Operands Shape>() -> Kernel<BFloat16> { return bf16_kernel<Op, Shape>; });
    return table;
}

template const KernelTable<std::int8_t>& avx2_kernels();
template const KernelTable<std::int16_t>& avx2_kernels();
template const KernelTable<std::int64_t>& avx2_kernels();
template const KernelTable<std::uint8_t>& avx2_kernels();
template const KernelTable<std::uint16_t>& avx2_kernels();
template const KernelTable<std::uint64_t>& avx2_kernels();
template const KernelTable<float>& avx2_kernels();
template const KernelTable<double>& avx2_kernels();

}  // namespace optimized
