// bf16 kernels in 512-bit registers, shared by the AVX-512 translation units (kernels_avx512.cpp,
// and kernels_avx512_bf16.cpp, built with AVX512-BF16). Internal linkage, like
// float16_convert.hpp: each TU compiles its own copy for its own target.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/half_float.hpp"
#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

inline __m512i load512(const void* p) {
    return _mm512_loadu_si512(p);
}
inline void store512(void* p, __m512i v) {
    _mm512_storeu_si512(p, v);
}

// 32 bf16 values per 512 bits in 32-bit lanes, even ones in the low halves, odd ones in the
// high halves (as in kernels_avx2.cpp).
inline __m512i even_f32(__m512i v) {
    return _mm512_slli_epi32(v, 16);
}
inline __m512i odd_f32(__m512i v) {
    return _mm512_and_si512(v, _mm512_set1_epi32(static_cast<int>(0xFFFF0000u)));
}

// f32 -> bf16 bits in the high half of each lane, bit-identical to f32_to_bf16: RNE as
// bits + 0x7FFF + ((bits >> 16) & 1), or for NaN the bits with the quiet bit 0x00400000 set.
inline __m512i round_to_bf16_high(__m512 x) {
    const __m512i bits = _mm512_castps_si512(x);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded =
        _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7FFF)), lsb);
    const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x00400000));
}

// The 32 results of a block from its even and odd f32 results, rounded with integers.
inline __m512i round_block(__m512 even, __m512 odd) {
    return _mm512_or_si512(_mm512_srli_epi32(round_to_bf16_high(even), 16),
                           odd_f32(round_to_bf16_high(odd)));
}

template <Operation Op>
__m512 apply16(__m512i a, __m512i b) {
    const __m512 x = _mm512_castsi512_ps(a), y = _mm512_castsi512_ps(b);
    return Op == Operation::multiply ? _mm512_mul_ps(x, y) : _mm512_div_ps(x, y);
}

// One kernel body for the three operand shapes; RoundBlock turns a block's f32 results into
// its 32 bf16 results. Stores are aligned to 64 bytes first (a straddling store costs half).
template <Operation Op, Operands Shape, __m512i (*RoundBlock)(__m512, __m512)>
bool bf16_blocks(const core::BFloat16* a, const core::BFloat16* b, core::BFloat16* out,
                 std::int64_t n) {
    constexpr Operation kOp = kEffective<core::BFloat16, Op>;
    // A scalar operand is the same value in both halves: its f32 bits fill every lane.
    const __m512i a1 = _mm512_set1_epi32(static_cast<int>(std::uint32_t(a[0].bits) << 16));
    const __m512i b1 = _mm512_set1_epi32(static_cast<int>(std::uint32_t(b[0].bits) << 16));
    std::int64_t i = 0;
    for (; i < n && reinterpret_cast<std::uintptr_t>(out + i) % 64 != 0; ++i)
        out[i] = compute<kOp>(kScalarA<Shape> ? a[0] : a[i], kScalarB<Shape> ? b[0] : b[i]);
    for (; i + 32 <= n; i += 32) {
        const __m512i va = kScalarA<Shape> ? a1 : load512(a + i);
        const __m512i vb = kScalarB<Shape> ? b1 : load512(b + i);
        const __m512 even =
            apply16<kOp>(kScalarA<Shape> ? a1 : even_f32(va), kScalarB<Shape> ? b1 : even_f32(vb));
        const __m512 odd =
            apply16<kOp>(kScalarA<Shape> ? a1 : odd_f32(va), kScalarB<Shape> ? b1 : odd_f32(vb));
        store512(out + i, RoundBlock(even, odd));
    }
    for (; i < n; ++i)
        out[i] = compute<kOp>(kScalarA<Shape> ? a[0] : a[i], kScalarB<Shape> ? b[0] : b[i]);
    return false;
}

}  // namespace
}  // namespace optimized
