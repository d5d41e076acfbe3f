// The AVX2 kernel set. This file (and integer_division_avx2.cpp, the integer division rows) is
// compiled with -mavx2 -mf16c -mfma (see CMakeLists.txt) and is only entered after
// cpu_supports(Isa::avx2). The loop kernels are the portable templates recompiled for AVX2 (they
// have internal linkage, so no AVX2 copy can replace a baseline one at link time); f16 converts in
// registers with F16C, bf16 with shifts and masks in 32-bit lanes. -ffp-contract=off keeps FMA out
// of every result.
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

}  // namespace

template <class T>
const KernelTable<T>& avx2_kernels() {
    static const KernelTable<T> table = [] {
        KernelTable<T> t = loop_kernels<T>();
        if constexpr (std::is_integral_v<T>) use_avx2_division(t);
        return t;
    }();
    return table;
}

template <>
const KernelTable<Half>& avx2_kernels() {
    static const KernelTable<Half> table = table_of<Half>(
        []<Operation Op, Operands Shape>() -> Kernel<Half> { return f16_kernel<Op, Shape>; });
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
template const KernelTable<std::int32_t>& avx2_kernels();
template const KernelTable<std::int64_t>& avx2_kernels();
template const KernelTable<std::uint8_t>& avx2_kernels();
template const KernelTable<std::uint16_t>& avx2_kernels();
template const KernelTable<std::uint32_t>& avx2_kernels();
template const KernelTable<std::uint64_t>& avx2_kernels();
template const KernelTable<float>& avx2_kernels();
template const KernelTable<double>& avx2_kernels();

}  // namespace optimized
