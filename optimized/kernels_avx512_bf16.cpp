// bf16 kernels for CPUs with AVX512-BF16 besides the AVX-512 set. This file alone is compiled
// with -mavx512bf16 (see CMakeLists.txt) and is only entered when cpu_supports(Isa::avx512) and
// the CPU reports avx512bf16. vcvtne2ps2bf16 rounds to nearest even, overflows to inf and keeps
// NaN as NaN with its top payload bits and the quiet bit set, as f32_to_bf16 does, but it reads
// f32 subnormals as zero (f32 0x00010000 gives 0x0000, not 0x0001; 0x007FFFFF gives 0x0000, not
// the smallest normal 0x0080). A block with a subnormal result is therefore rounded with
// integers instead (round_block), so the results stay bit-exact.
#include <immintrin.h>

#include <bit>

#include "optimized/bf16_avx512.hpp"

namespace optimized {
namespace {

__m512i convert_block(__m512 even, __m512 odd) {
    constexpr int kDenormal = 0x20;  // vfpclassps category
    if ((_mm512_fpclass_ps_mask(even, kDenormal) | _mm512_fpclass_ps_mask(odd, kDenormal)) != 0)
        return round_block(even, odd);
    // Words 0-15: the even results, 16-31: the odd ones; interleave them back: word 2j takes j,
    // word 2j+1 takes 16 + j.
    const __m512i packed = std::bit_cast<__m512i>(_mm512_cvtne2ps_pbh(odd, even));
    const auto pair = [](int j) { return j | ((16 + j) << 16); };
    const __m512i interleave = _mm512_set_epi32(
        pair(15), pair(14), pair(13), pair(12), pair(11), pair(10), pair(9), pair(8), pair(7),
        pair(6), pair(5), pair(4), pair(3), pair(2), pair(1), pair(0));
    return _mm512_permutexvar_epi16(interleave, packed);
}

}  // namespace

const KernelTable<core::BFloat16>& avx512_bf16_kernels() {
    static const KernelTable<core::BFloat16> table =
        table_of<core::BFloat16>([]<Operation Op, Operands Shape>() -> Kernel<core::BFloat16> {
            return bf16_blocks<Op, Shape, convert_block>;
        });
    return table;
}

}  // namespace optimized
