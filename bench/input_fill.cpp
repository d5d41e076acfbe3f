#include "bench/input_fill.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace bench {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Uniform in [lo, hi] from one hash.
std::int64_t uniform(std::uint64_t h, std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(hi - lo + 1));
}

double float_value(std::uint64_t h) {
    const double magnitude = 0.5 + 1.5 * static_cast<double>(h >> 11) * 0x1p-53;
    return (h & 1) ? -magnitude : magnitude;
}

// An operand from rows.json's integer_inputs ranges (bench_row.hpp).
std::int64_t integer_value(const Row& row, Operand operand, bool is_signed, std::uint64_t h) {
    const bool negative = (h & 1) != 0;
    const std::uint64_t r = h >> 1;
    if (row.arithmetic == core::Arithmetic::multiply)
        return uniform(r, row.inputs.multiply[0], row.inputs.multiply[1]);
    if (operand == Operand::a) return uniform(r, row.inputs.dividend[0], row.inputs.dividend[1]);
    const std::int64_t magnitude = uniform(r, row.inputs.divisor[0], row.inputs.divisor[1]);
    return is_signed && negative ? -magnitude : magnitude;
}

}  // namespace

core::Tensor make_input(const Row& row, Operand operand, const core::Shape& shape) {
    core::Tensor t = core::Tensor::zeros(row.type, shape);
    const std::int64_t n = t.size();
    const std::uint64_t seed = operand == Operand::a ? 0x1234567ULL : 0x89abcdefULL;
    core::dispatch(row.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            throw std::logic_error("make_input: boolean rows are not benchmarked");
        } else {
            auto v = t.values<T>();
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) {
                const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(i)));
                if constexpr (std::is_same_v<T, core::Half>) {
                    v[i] = core::half_from_double(float_value(h));
                } else if constexpr (std::is_same_v<T, core::BFloat16>) {
                    v[i] = core::bfloat16_from_double(float_value(h));
                } else if constexpr (std::is_floating_point_v<T>) {
                    v[i] = static_cast<T>(float_value(h));
                } else {
                    v[i] = static_cast<T>(integer_value(row, operand, std::is_signed_v<T>, h));
                }
            }
        }
    });
    return t;
}

}  // namespace bench
