#include "backends/adapters/xnnpack/broadcast_lowering.hpp"

#include <algorithm>

namespace backends::adapters::xnnpack {
namespace {

std::vector<std::size_t> dims(const core::Shape& s) {
    return {s.begin(), s.end()};  // element_count() has checked that no dim is negative
}

// The numpy output shape without a compatibility check: XNNPACK's setup does that check, and
// the adapter must not pre-empt the library's answer.
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
std::vector<std::size_t> place_b(std::size_t rank_a, const core::Shape& kept, std::size_t axis) {
    std::vector<std::size_t> out(rank_a, 1);
    std::copy(kept.begin(), kept.end(), out.begin() + static_cast<std::ptrdiff_t>(axis));
    return out;
}

// ONNX Mul-1/6 broadcast=1: a one-element B stretches everywhere; otherwise B's dims sit at
// `axis`, or at A's end when axis is unset (suffix matching).
std::vector<std::size_t> legacy_b(const core::Shape& a, const core::Shape& b,
                                  const core::BroadcastSpec& spec) {
    if (core::element_count(b) == 1) return place_b(a.size(), {}, 0);
    const auto axis = spec.axis.value_or(static_cast<std::int64_t>(a.size() - b.size()));
    return place_b(a.size(), b, static_cast<std::size_t>(axis));
}

// OpenVINO pdpd: axis -1 means rank(A) - rank(B) with B as given; then B's trailing 1s go.
std::vector<std::size_t> pdpd_b(const core::Shape& a, const core::Shape& b,
                                const core::BroadcastSpec& spec) {
    std::int64_t axis = spec.axis.value_or(-1);
    if (axis == -1)
        axis = static_cast<std::int64_t>(a.size()) - static_cast<std::int64_t>(b.size());
    core::Shape kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    return place_b(a.size(), kept, static_cast<std::size_t>(axis));
}

}  // namespace

LoweredShapes lower_shapes(const core::Shape& a, const core::Shape& b,
                           const core::BroadcastSpec& spec) {
    core::element_count(a);  // rejects negative dims before they become size_t
    core::element_count(b);
    if (spec.rule == core::BroadcastRule::numpy) return {dims(a), dims(b), numpy_output(a, b)};
    // The converter's own check of a rule XNNPACK does not know; throws core::Error(shape).
    core::broadcast_shape(a, b, spec);
    switch (spec.rule) {
        case core::BroadcastRule::onnx_legacy:
            return {dims(a), legacy_b(a, b, spec), a};
        case core::BroadcastRule::pdpd:
            return {dims(a), pdpd_b(a, b, spec), a};
        default:  // none: equal shapes, checked above
            return {dims(a), dims(b), a};
    }
}

}  // namespace backends::adapters::xnnpack
