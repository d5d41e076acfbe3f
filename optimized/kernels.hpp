// The inner kernels: one contiguous span of outputs, each operand a vector or one scalar.
#pragma once

#include <array>
#include <cstdint>

#include "core/half_float.hpp"
#include "optimized/cpu_dispatch.hpp"

namespace optimized {

// Integer division rounds per the op's config; for floats both division entries are the same.
enum class Operation { multiply, divide_truncate, divide_floor };
inline constexpr int kOperationCount = 3;

// vector⊗vector reads a[0..n) and b[0..n); vector⊗scalar reads a[0..n) and b[0];
// scalar⊗vector reads a[0] and b[0..n). Division is not commutative, hence two mixed shapes.
enum class Operands { vector_vector, vector_scalar, scalar_vector };
inline constexpr int kOperandsCount = 3;

// Writes out[0..n). Returns whether some divisor was an integer 0: those outputs are 0 and the
// caller lists their indices as undefined. Never executes a trapping instruction.
template <class T>
using Kernel = bool (*)(const T* a, const T* b, T* out, std::int64_t n);

template <class T>
struct KernelTable {
    std::array<std::array<Kernel<T>, kOperandsCount>, kOperationCount> kernels;
    Kernel<T> get(Operation op, Operands operands) const {
        return kernels[static_cast<int>(op)][static_cast<int>(operands)];
    }
};

// Tables per instruction set, for every storage type except bool (explicitly instantiated).
template <class T>
const KernelTable<T>& portable_kernels();  // baseline x86-64 (SSE2), `omp simd` loops
template <class T>
const KernelTable<T>& avx2_kernels();  // AVX2 + F16C + FMA (FMA never used: no contraction)
template <class T>
const KernelTable<T>& avx512_kernels();  // AVX-512 F, BW, DQ, VL, VBMI
// Puts the AVX2 integer division kernels (integer_division_avx2.cpp) into an integer table.
template <class T>
void use_avx2_division(KernelTable<T>& table);
// bf16 within the AVX-512 set on CPUs that also have AVX512-BF16 (the conversion instruction),
// and without it (integer rounding; tested directly, since a BF16 CPU never selects it whole).
const KernelTable<core::BFloat16>& avx512_bf16_kernels();
const KernelTable<core::BFloat16>& avx512_integer_bf16_kernels();

template <class T>
const KernelTable<T>& kernels_for(Isa isa) {
    switch (isa) {
        case Isa::avx512:
            return avx512_kernels<T>();
        case Isa::avx2:
            return avx2_kernels<T>();
        case Isa::portable:
            break;
    }
    return portable_kernels<T>();
}

}  // namespace optimized
