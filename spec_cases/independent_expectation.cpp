// Independent on purpose (see independent_expectation.hpp): it reads the rules from the spec
// text itself and shares no code with core/broadcast or the reference, which it checks.
#include "spec_cases/independent_expectation.hpp"

#include <cmath>

#include "core/element_text.hpp"

namespace spec_cases {
namespace {

// Stores an exactly representable value, widened through double.
void store(core::Tensor& t, std::int64_t i, double v) {
    core::dispatch(t.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, core::Half>)
            t.values<T>()[i] = core::half_from_double(v);
        else if constexpr (std::is_same_v<T, core::BFloat16>)
            t.values<T>()[i] = core::bfloat16_from_double(v);
        else
            t.values<T>()[i] = static_cast<T>(v);
    });
}

bool is_unsigned(core::ElementType t) {
    return core::info(t).kind == core::Kind::unsigned_integer;
}

core::Tensor fill(core::ElementType type, const core::Shape& shape,
                  double (*value)(std::int64_t, bool)) {
    core::Tensor t = core::Tensor::zeros(type, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        store(t, i, value(i, is_unsigned(type)));
    return t;
}

// Row-major coordinates of flat index `flat` in `shape`.
std::vector<std::int64_t> coordinates(std::int64_t flat, const core::Shape& shape) {
    std::vector<std::int64_t> c(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        c[d] = flat % shape[d];
        flat /= shape[d];
    }
    return c;
}

// Flat index of an input of `shape` whose dim k lines up with output dim first + k;
// "a dim of size 1 is broadcast": it always reads coordinate 0.
std::int64_t input_index(const core::Shape& shape, const std::vector<std::int64_t>& out,
                         std::int64_t first) {
    std::int64_t flat = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const std::int64_t c = shape[k] == 1 ? 0 : out[static_cast<std::size_t>(first) + k];
        flat = flat * shape[k] + c;
    }
    return flat;
}

// Output dim at which B's first dim sits.
std::int64_t b_start(const Placement& p, const core::Shape& a, const core::Shape& b,
                     std::int64_t out_rank) {
    const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
    switch (p.rule) {
        case core::BroadcastRule::none:
            return 0;
        case core::BroadcastRule::numpy:
            return out_rank - rb;  // right-aligned
        case core::BroadcastRule::pdpd:
            return p.axis.value_or(-1) == -1 ? ra - rb : *p.axis;
        case core::BroadcastRule::onnx_legacy:
            return p.axis ? *p.axis : ra - rb;  // suffix
    }
    return 0;
}

double apply(core::Arithmetic arithmetic, bool integer, bool floor, double x, double y) {
    if (arithmetic == core::Arithmetic::multiply) return x * y;
    const double q = x / y;  // exact for the fill values
    if (!integer) return q;
    return floor ? std::floor(q) : std::trunc(q);
}

}  // namespace

core::Tensor fill_dividends(core::ElementType type, const core::Shape& shape) {
    return fill(type, shape, [](std::int64_t i, bool unsigned_type) {
        return unsigned_type ? double(i % 15) : double(i % 15 - 7);
    });
}

core::Tensor fill_divisors(core::ElementType type, const core::Shape& shape) {
    return fill(type, shape, [](std::int64_t i, bool unsigned_type) {
        static constexpr double kSigned[] = {1, 2, 4, -1, -2, -4};
        static constexpr double kUnsigned[] = {1, 2, 4};
        return unsigned_type ? kUnsigned[i % 3] : kSigned[i % 6];
    });
}

core::OpOutput expected_output(core::Arithmetic arithmetic, bool floor, const Placement& placement,
                               const core::Tensor& a, const core::Tensor& b,
                               const core::Shape& output_shape) {
    core::OpOutput out{core::Tensor::zeros(a.type, output_shape), {}};
    const auto rank = static_cast<std::int64_t>(output_shape.size());
    const std::int64_t a_first = placement.rule == core::BroadcastRule::numpy
                                     ? rank - static_cast<std::int64_t>(a.shape.size())
                                     : 0;
    const std::int64_t b_first = b_start(placement, a.shape, b.shape, rank);
    const bool integer = core::is_integer(a.type);
    for (std::int64_t i = 0; i < out.value.size(); ++i) {
        const auto c = coordinates(i, output_shape);
        const double x = core::element_as_double(a, input_index(a.shape, c, a_first));
        const double y = core::element_as_double(b, input_index(b.shape, c, b_first));
        store(out.value, i, apply(arithmetic, integer, floor, x, y));
    }
    return out;
}

}  // namespace spec_cases
