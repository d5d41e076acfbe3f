// Deterministic input data of the benchmark: the same values for any thread count.
#pragma once

#include <cstdint>

#include "bench/bench_row.hpp"
#include "core/tensor.hpp"

namespace bench {

enum class Operand { a, b };

// Values keep every implementation on its ordinary path and every peer on the same arithmetic:
// floats have magnitudes in [0.5, 2) and a random sign (no zero, inf, NaN or subnormal results);
// integer products never overflow (i32 in [-2000, 2000], i64 in [-2^20, 2^20], u8 in [0, 15]);
// divisors are never 0 (signed: +-[1, 1000] for i32, +-[1, 10^6] for i64; u8 in [1, 255]) and
// dividends lie in [-10^6, 10^6] (i32), [-10^12, 10^12] (i64), [0, 255] (u8).
core::Tensor make_input(const Row& row, Operand operand, const core::Shape& shape);

}  // namespace bench
