#include "backends/adapters/converter_lowering.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/error.hpp"

namespace backends::adapters {
namespace {

// The numpy output shape without a compatibility check: the library does that check.
core::Shape numpy_output(const core::Shape& a, const core::Shape& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    core::Shape out(rank, 1);
    for (std::size_t i = 1; i <= rank; ++i) {
        const std::int64_t x = i <= a.size() ? a[a.size() - i] : 1;
        const std::int64_t y = i <= b.size() ? b[b.size() - i] : 1;
        out[rank - i] = x == 1 ? y : (y == 1 ? x : std::max(x, y));
    }
    return out;
}

// B in A's rank: `kept` starting at `axis`, 1 everywhere else.
core::Shape place_b(std::size_t rank_a, const core::Shape& kept, std::size_t axis) {
    core::Shape out(rank_a, 1);
    std::copy(kept.begin(), kept.end(), out.begin() + static_cast<std::ptrdiff_t>(axis));
    return out;
}

// ONNX Mul-1/6 broadcast=1: a one-element B stretches everywhere; otherwise B's dims sit at
// `axis`, or at A's end when axis is unset (suffix matching).
core::Shape legacy_b(const core::Shape& a, const core::Shape& b, const core::BroadcastSpec& spec) {
    if (core::element_count(b) == 1) return place_b(a.size(), {}, 0);
    const auto axis = spec.axis.value_or(static_cast<std::int64_t>(a.size() - b.size()));
    return place_b(a.size(), b, static_cast<std::size_t>(axis));
}

// OpenVINO pdpd: axis -1 means rank(A) - rank(B) with B as given; then B's trailing 1s go.
core::Shape pdpd_b(const core::Shape& a, const core::Shape& b, const core::BroadcastSpec& spec) {
    std::int64_t axis = spec.axis.value_or(-1);
    if (axis == -1)
        axis = static_cast<std::int64_t>(a.size()) - static_cast<std::int64_t>(b.size());
    core::Shape kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    return place_b(a.size(), kept, static_cast<std::size_t>(axis));
}

// An axis past A's rank never fits (B has rank >= 0), as core::broadcast_shape would also say;
// rejected here first because its fit check `axis + rank(B)` overflows for an axis near
// INT64_MAX, which the attribute validation lets through.
void reject_axis_past_rank(const core::Shape& a, const core::BroadcastSpec& spec) {
    if (spec.axis && *spec.axis > static_cast<std::int64_t>(a.size()))
        throw core::Error(core::ErrorKind::shape, "cannot broadcast A " + core::to_string(a) +
                                                      " (" + core::to_string(spec) +
                                                      "): the axis is past A's rank");
}

// The converter's own check of a rule the library does not know; throws core::Error(shape).
// After it, B fits in A at the axis, so place_b stays inside A's rank.
void check_fit(const core::Shape& a, const core::Shape& b, const core::BroadcastSpec& spec) {
    reject_axis_past_rank(a, spec);
    core::broadcast_shape(a, b, spec);
}

}  // namespace

LoweredShapes lower_shapes(const core::Shape& a, const core::Shape& b,
                           const core::BroadcastSpec& spec) {
    core::element_count(a);  // rejects negative dims before they reach a library as sizes
    core::element_count(b);
    // One case per rule and no default: a new rule fails the build (-Werror=switch) until it
    // has a lowering here.
    switch (spec.rule) {
        case core::BroadcastRule::numpy:  // the library's own rule, which it checks itself
            return {a, b, numpy_output(a, b)};
        case core::BroadcastRule::none:  // equal shapes
            check_fit(a, b, spec);
            return {a, b, a};
        case core::BroadcastRule::onnx_legacy:
            check_fit(a, b, spec);
            return {a, legacy_b(a, b, spec), a};
        case core::BroadcastRule::pdpd:
            check_fit(a, b, spec);
            return {a, pdpd_b(a, b, spec), a};
    }
    __builtin_unreachable();
}

}  // namespace backends::adapters
