// The three kernel shapes as `omp simd` loops over element_ops.hpp, and a table of them.
// Internal linkage: each instruction-set TU compiles its own copy (see float16_convert.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "optimized/element_ops.hpp"
#include "optimized/integer_division.hpp"
#include "optimized/kernels.hpp"

namespace optimized {
namespace {

template <Operation Op, class T>
bool vector_vector(const T* a, const T* b, T* out, std::int64_t n) {
    int undefined = 0;
#pragma omp simd reduction(| : undefined)
    for (std::int64_t i = 0; i < n; ++i) {
        out[i] = compute<Op>(a[i], b[i]);
        undefined |= undefined_divisor<Op>(b[i]);
    }
    return undefined != 0;
}

template <Operation Op, class T>
bool scalar_vector(const T* a, const T* b, T* out, std::int64_t n) {
    const T x = a[0];
    int undefined = 0;
#pragma omp simd reduction(| : undefined)
    for (std::int64_t i = 0; i < n; ++i) {
        out[i] = compute<Op>(x, b[i]);
        undefined |= undefined_divisor<Op>(b[i]);
    }
    return undefined != 0;
}

// 64-bit integer division by one divisor: multiply and shift instead of a hardware divide.
template <Operation Op, class T>
bool divide_by_invariant64(const T* a, T d, T* out, std::int64_t n) {
    if constexpr (std::is_signed_v<T>) {
        const bool negative = d < 0;
        const std::uint64_t magnitude = static_cast<std::uint64_t>(d);
        const std::uint64_t abs_d = negative ? 0 - magnitude : magnitude;
        const InvariantDivisor64 divisor = invariant_divisor(abs_d);
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = divide_invariant_signed<Op == Operation::divide_floor>(a[i], abs_d, negative,
                                                                            divisor);
    } else {
        const InvariantDivisor64 divisor = invariant_divisor(d);
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = divide_invariant(a[i], divisor);
    }
    return false;
}

template <Operation Op, class T>
bool vector_scalar(const T* a, const T* b, T* out, std::int64_t n) {
    const T y = b[0];
    if constexpr (kIsInteger<T> && Op != Operation::multiply) {
        if (y == T(0)) {  // every element undefined; their slots hold 0
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = T(0);
            return n > 0;
        }
        if constexpr (sizeof(T) == 8) return divide_by_invariant64<Op>(a, y, out, n);
    }
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = compute<Op>(a[i], y);
    return false;
}

template <class T, Operation Op>
void fill_row(KernelTable<T>& table) {
    // Floats ignore the rounding mode: both division rows hold the same kernels.
    constexpr Operation kOp =
        (!kIsInteger<T> && Op == Operation::divide_floor) ? Operation::divide_truncate : Op;
    auto& row = table.kernels[static_cast<int>(Op)];
    row[static_cast<int>(Operands::vector_vector)] = vector_vector<kOp, T>;
    row[static_cast<int>(Operands::vector_scalar)] = vector_scalar<kOp, T>;
    row[static_cast<int>(Operands::scalar_vector)] = scalar_vector<kOp, T>;
}

template <class T>
KernelTable<T> loop_kernels() {
    KernelTable<T> table{};
    fill_row<T, Operation::multiply>(table);
    fill_row<T, Operation::divide_truncate>(table);
    fill_row<T, Operation::divide_floor>(table);
    return table;
}

}  // namespace
}  // namespace optimized
