// The AVX2 kernel set. This file alone is compiled with -mavx2 -mf16c -mfma (see
// CMakeLists.txt) and is only entered after cpu_has_avx2(). The loop kernels are the portable
// templates recompiled for AVX2 (they have internal linkage, so no AVX2 copy can replace a
// baseline one at link time); f16 converts in registers with F16C. -ffp-contract=off keeps FMA
// out of every result.
#include <immintrin.h>

#include <cstdint>

#include "core/half_float.hpp"
#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

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

template <Operation Op>
void fill_f16_row(KernelTable<Half>& table) {
    auto& row = table.kernels[static_cast<int>(Op)];
    row[static_cast<int>(Operands::vector_vector)] = f16_kernel<Op, Operands::vector_vector>;
    row[static_cast<int>(Operands::vector_scalar)] = f16_kernel<Op, Operands::vector_scalar>;
    row[static_cast<int>(Operands::scalar_vector)] = f16_kernel<Op, Operands::scalar_vector>;
}

KernelTable<Half> f16c_kernels() {
    KernelTable<Half> table{};
    fill_f16_row<Operation::multiply>(table);
    fill_f16_row<Operation::divide_truncate>(table);
    table.kernels[static_cast<int>(Operation::divide_floor)] =
        table.kernels[static_cast<int>(Operation::divide_truncate)];
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
    static const KernelTable<Half> table = f16c_kernels();
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
template const KernelTable<core::BFloat16>& avx2_kernels();
template const KernelTable<float>& avx2_kernels();
template const KernelTable<double>& avx2_kernels();

}  // namespace optimized
