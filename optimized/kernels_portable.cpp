// The baseline kernel set: `omp simd` loops compiled for plain x86-64 (or any target).
#include <cstdint>

#include "core/half_float.hpp"
#include "optimized/kernel_loops.hpp"
#include "optimized/kernels.hpp"

namespace optimized {

template <class T>
const KernelTable<T>& portable_kernels() {
    static const KernelTable<T> table = loop_kernels<T>();
    return table;
}

template const KernelTable<std::int8_t>& portable_kernels();
template const KernelTable<std::int16_t>& portable_kernels();
template const KernelTable<std::int32_t>& portable_kernels();
template const KernelTable<std::int64_t>& portable_kernels();
template const KernelTable<std::uint8_t>& portable_kernels();
template const KernelTable<std::uint16_t>& portable_kernels();
template const KernelTable<std::uint32_t>& portable_kernels();
template const KernelTable<std::uint64_t>& portable_kernels();
template const KernelTable<core::Half>& portable_kernels();
template const KernelTable<core::BFloat16>& portable_kernels();
template const KernelTable<float>& portable_kernels();
template const KernelTable<double>& portable_kernels();

}  // namespace optimized
