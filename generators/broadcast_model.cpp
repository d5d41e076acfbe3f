// Independent on purpose (see broadcast_model.hpp): the properties check core against it, so
// it switches on the rules itself and shares no code with core/broadcast.
#include "generators/broadcast_model.hpp"

#include <algorithm>

namespace generators {
namespace {

using core::Shape;

// "Align shapes on the right, prepend 1s to the shorter one; each pair of dims must be equal or
// one of them 1; the output dim is the larger (0 if either is 0 and the other is 1 or 0)."
std::optional<Layout> numpy(const Shape& a, const Shape& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    Layout l{Shape(rank), Shape(rank - a.size(), 1), Shape(rank - b.size(), 1)};
    l.a.insert(l.a.end(), a.begin(), a.end());
    l.b.insert(l.b.end(), b.begin(), b.end());
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t x = l.a[d], y = l.b[d];
        if (x == y || y == 1)
            l.output[d] = x;
        else if (x == 1)
            l.output[d] = y;
        else
            return std::nullopt;
    }
    return l;
}

// B's dims `kept` placed inside A's rank from `start`; B's extent is 1 everywhere else.
Layout onto_a(const Shape& a, const Shape& kept, std::int64_t start) {
    Layout l{a, a, Shape(a.size(), 1)};
    for (std::size_t i = 0; i < kept.size(); ++i)
        l.b[static_cast<std::size_t>(start) + i] = kept[i];
    return l;
}

// "rank(B) <= rank(A). Trailing dims of size 1 in B are dropped first. axis is where B starts
// inside A; -1 means rank(A) - rank(B) (B's rank as given); any other negative value is an error.
// Each B dim must equal the A dim it lines up with or be 1."
std::optional<Layout> pdpd(const Shape& a, const Shape& b, std::optional<std::int64_t> axis) {
    const auto ra = static_cast<std::int64_t>(a.size());
    const auto rb = static_cast<std::int64_t>(b.size());
    std::int64_t start = axis.value_or(-1);
    if (rb > ra || start < -1) return std::nullopt;
    if (start == -1) start = ra - rb;
    Shape kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    if (start + static_cast<std::int64_t>(kept.size()) > ra) return std::nullopt;
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (kept[i] != 1 && kept[i] != a[static_cast<std::size_t>(start) + i]) return std::nullopt;
    return onto_a(a, kept, start);
}

// "Either B has exactly one element and rank(B) <= rank(A), or B's shape equals a contiguous run
// of A's dims, starting at axis if given, else aligned to A's end. An axis that does not fit is
// an error." Size-1 dims of B do not stretch.
std::optional<Layout> onnx_legacy(const Shape& a, const Shape& b,
                                  std::optional<std::int64_t> axis) {
    const auto ra = static_cast<std::int64_t>(a.size());
    const auto rb = static_cast<std::int64_t>(b.size());
    if (rb > ra) return std::nullopt;
    if (axis && (*axis < 0 || *axis + rb > ra)) return std::nullopt;
    if (elements(b) == 1) return onto_a(a, {}, 0);
    const std::int64_t start = axis.value_or(ra - rb);
    if (!std::equal(b.begin(), b.end(), a.begin() + start)) return std::nullopt;
    return onto_a(a, b, start);
}

}  // namespace

std::int64_t elements(const Shape& shape) {
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

std::optional<Layout> model_layout(core::BroadcastRule rule, const Shape& a, const Shape& b,
                                   std::optional<std::int64_t> axis) {
    switch (rule) {
        case core::BroadcastRule::none:
            if (a != b) return std::nullopt;
            return Layout{a, a, b};
        case core::BroadcastRule::numpy:
            return numpy(a, b);
        case core::BroadcastRule::pdpd:
            return pdpd(a, b, axis);
        case core::BroadcastRule::onnx_legacy:
            return onnx_legacy(a, b, axis);
    }
    return std::nullopt;
}

std::pair<std::int64_t, std::int64_t> input_offsets(const Layout& layout, std::int64_t i) {
    // Peel output coordinates off from the last dim; each input reads coordinate 0 where its
    // extent is 1 and the output's coordinate elsewhere.
    std::int64_t a = 0, b = 0, a_step = 1, b_step = 1;
    for (std::size_t d = layout.output.size(); d-- > 0;) {
        const std::int64_t coordinate = i % layout.output[d];
        i /= layout.output[d];
        if (layout.a[d] != 1) a += coordinate * a_step;
        if (layout.b[d] != 1) b += coordinate * b_step;
        a_step *= layout.a[d];
        b_step *= layout.b[d];
    }
    return {a, b};
}

}  // namespace generators
