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

template <Operands Shape>
inline constexpr bool kScalarA = Shape == Operands::scalar_vector;
template <Operands Shape>
inline constexpr bool kScalarB = Shape == Operands::vector_scalar;

// Elements [i, n) one at a time, after a vector loop; whether one of their divisors is 0.
template <Operation Op, Operands Shape, class T>
bool divide_rest(const T* a, const T* b, T* out, std::int64_t i, std::int64_t n) {
    bool undefined = false;
    for (; i < n; ++i) {
        const T y = kScalarB<Shape> ? b[0] : b[i];
        out[i] = compute<Op>(kScalarA<Shape> ? a[0] : a[i], y);
        undefined |= y == T(0);
    }
    return undefined;
}

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

// Floats ignore the rounding mode: both division rows run the same kernels.
template <class T, Operation Op>
inline constexpr Operation kEffective = (!kIsInteger<T> && Op == Operation::divide_floor)
                                            ? Operation::divide_truncate
                                            : Op;

// A table whose every entry is make.template operator()<Op, Shape>(): `make` is a generic lambda
// naming a kernel template, e.g. []<Operation Op, Operands S>() { return my_kernel<Op, S>; }.
template <class T, class Make>
KernelTable<T> table_of(Make make) {
    KernelTable<T> table{};
    const auto row = [&]<Operation Op>() {
        auto& r = table.kernels[static_cast<int>(Op)];
        r[static_cast<int>(Operands::vector_vector)] =
            make.template operator()<Op, Operands::vector_vector>();
        r[static_cast<int>(Operands::vector_scalar)] =
            make.template operator()<Op, Operands::vector_scalar>();
        r[static_cast<int>(Operands::scalar_vector)] =
            make.template operator()<Op, Operands::scalar_vector>();
    };
    row.template operator()<Operation::multiply>();
    row.template operator()<Operation::divide_truncate>();
    row.template operator()<Operation::divide_floor>();
    return table;
}

template <class T>
KernelTable<T> loop_kernels() {
    return table_of<T>([]<Operation Op, Operands Shape>() -> Kernel<T> {
        constexpr Operation kOp = kEffective<T, Op>;
        if constexpr (Shape == Operands::vector_vector) return vector_vector<kOp, T>;
        if constexpr (Shape == Operands::vector_scalar) return vector_scalar<kOp, T>;
        return scalar_vector<kOp, T>;
    });
}

}  // namespace
}  // namespace optimized
