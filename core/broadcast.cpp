#include "core/broadcast.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace core {
namespace {

// Both inputs laid out in the output's rank: aligned[d] is the input's extent along output dim d.
struct Alignment {
    Shape output;
    Shape a;
    Shape b;
};

[[noreturn]] void reject(const Shape& a, const Shape& b, const BroadcastSpec& spec,
                         const std::string& reason) {
    throw Error(ErrorKind::shape, "cannot broadcast A " + to_string(a) + " with B " + to_string(b) +
                                      " under rule '" + to_string(spec) + "': " + reason);
}

Alignment align_none(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    if (a != b) reject(a, b, spec, "the shapes must be identical");
    return {a, a, b};
}

Alignment align_numpy(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    const std::size_t rank = std::max(a.size(), b.size());
    Alignment out{Shape(rank), Shape(rank, 1), Shape(rank, 1)};
    std::copy(a.begin(), a.end(), out.a.end() - static_cast<std::ptrdiff_t>(a.size()));
    std::copy(b.begin(), b.end(), out.b.end() - static_cast<std::ptrdiff_t>(b.size()));
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t x = out.a[d], y = out.b[d];
        if (x != y && x != 1 && y != 1)
            reject(a, b, spec,
                   "dims " + std::to_string(x) + " and " + std::to_string(y) + " at aligned axis " +
                       std::to_string(d) + " differ and neither is 1");
        out.output[d] = x == 1 ? y : x;
    }
    return out;
}

// B placed inside A's rank starting at `axis`; the remaining dims of B's layout are 1.
Alignment place_b(const Shape& a, const Shape& b_kept, std::int64_t axis) {
    Alignment out{a, a, Shape(a.size(), 1)};
    std::copy(b_kept.begin(), b_kept.end(), out.b.begin() + axis);
    return out;
}

Alignment align_pdpd(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    const auto rank_a = static_cast<std::int64_t>(a.size());
    const auto rank_b = static_cast<std::int64_t>(b.size());
    if (rank_b > rank_a) reject(a, b, spec, "rank(B) exceeds rank(A); pdpd only broadcasts B to A");
    std::int64_t axis = spec.axis.value_or(-1);
    if (axis < -1) reject(a, b, spec, "axis must be -1 or non-negative");
    // OpenVINO computes the default axis from B's rank as given, then drops B's trailing 1s.
    if (axis == -1) axis = rank_a - rank_b;
    Shape kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    const auto len = static_cast<std::int64_t>(kept.size());
    if (axis > rank_a - len)  // not axis + len: a huge axis must not overflow
        reject(a, b, spec,
               "B's dims (trailing 1s dropped) do not fit in A from axis " + std::to_string(axis));
    for (std::int64_t i = 0; i < len; ++i) {
        const std::int64_t x = a[axis + i], y = kept[i];
        if (y != x && y != 1)
            reject(a, b, spec,
                   "B dim " + std::to_string(i) + " (" + std::to_string(y) + ") must equal A dim " +
                       std::to_string(axis + i) + " (" + std::to_string(x) + ") or be 1");
    }
    return place_b(a, kept, axis);
}

Alignment align_onnx_legacy(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    const auto rank_a = static_cast<std::int64_t>(a.size());
    const auto rank_b = static_cast<std::int64_t>(b.size());
    if (rank_b > rank_a) reject(a, b, spec, "rank(B) exceeds rank(A); only B is broadcast to A");
    if (spec.axis && (*spec.axis < 0 || *spec.axis > rank_a - rank_b))  // no overflow
        reject(a, b, spec,
               "axis " + std::to_string(*spec.axis) + " does not fit: B's " +
                   std::to_string(rank_b) + " dims must lie within A's " + std::to_string(rank_a) +
                   " from there");
    // "the second tensor can either be of element size 1 ..."
    if (element_count(b) == 1) return place_b(a, {}, 0);
    // "... or having its shape as a contiguous subset of the first tensor's shape";
    // "1-dim expansion doesn't work yet": every dim must match exactly.
    const std::int64_t axis = spec.axis.value_or(rank_a - rank_b);
    for (std::int64_t i = 0; i < rank_b; ++i)
        if (a[axis + i] != b[i])
            reject(a, b, spec,
                   "B dim " + std::to_string(i) + " (" + std::to_string(b[i]) +
                       ") must equal A dim " + std::to_string(axis + i) + " (" +
                       std::to_string(a[axis + i]) + "); size-1 dims do not stretch");
    return place_b(a, b, axis);
}

Alignment align(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    element_count(a);  // validates rank and dims
    element_count(b);
    switch (spec.rule) {
        case BroadcastRule::none:
            return align_none(a, b, spec);
        case BroadcastRule::numpy:
            return align_numpy(a, b, spec);
        case BroadcastRule::pdpd:
            return align_pdpd(a, b, spec);
        case BroadcastRule::onnx_legacy:
            return align_onnx_legacy(a, b, spec);
    }
    __builtin_unreachable();
}

// Row-major strides of `aligned`, with 0 wherever the input has extent 1 (it is stretched).
std::vector<std::int64_t> broadcast_strides(const Shape& aligned) {
    std::vector<std::int64_t> strides(aligned.size(), 0);
    // An empty input is never read; its dims' product could exceed 64 bits.
    if (element_count(aligned) == 0) return strides;
    std::int64_t step = 1;
    for (std::size_t d = aligned.size(); d-- > 0;) {
        strides[d] = aligned[d] == 1 ? 0 : step;
        step *= aligned[d];
    }
    return strides;
}

}  // namespace

std::string_view name(BroadcastRule rule) {
    switch (rule) {
        case BroadcastRule::none:
            return "none";
        case BroadcastRule::numpy:
            return "numpy";
        case BroadcastRule::pdpd:
            return "pdpd";
        case BroadcastRule::onnx_legacy:
            return "onnx_legacy";
    }
    __builtin_unreachable();
}

std::optional<BroadcastRule> broadcast_rule_named(std::string_view text) {
    for (BroadcastRule r : kBroadcastRules)
        if (name(r) == text) return r;
    return std::nullopt;
}

std::string broadcast_rule_names() {
    std::string out;
    for (BroadcastRule r : kBroadcastRules)
        out += (out.empty() ? "" : ", ") + std::string(name(r));
    return out;
}

bool stretches_size_one_dims(BroadcastRule rule) {
    switch (rule) {
        case BroadcastRule::none:
        case BroadcastRule::onnx_legacy:
            return false;
        case BroadcastRule::numpy:
        case BroadcastRule::pdpd:
            return true;
    }
    __builtin_unreachable();
}

bool takes_axis(BroadcastRule rule) {
    switch (rule) {
        case BroadcastRule::none:
        case BroadcastRule::numpy:
            return false;
        case BroadcastRule::pdpd:
        case BroadcastRule::onnx_legacy:
            return true;
    }
    __builtin_unreachable();
}

std::string to_string(const BroadcastSpec& spec) {
    switch (spec.rule) {
        case BroadcastRule::none:
            return "none";
        case BroadcastRule::numpy:
            return "numpy";
        case BroadcastRule::pdpd:
            return "pdpd axis=" + std::to_string(spec.axis.value_or(-1));
        case BroadcastRule::onnx_legacy:
            return spec.axis ? "onnx legacy broadcast=1 axis=" + std::to_string(*spec.axis)
                             : "onnx legacy broadcast=1 (suffix)";
    }
    return "?";
}

BroadcastPlan make_plan(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    Alignment al = align(a, b, spec);
    return {std::move(al.output), broadcast_strides(al.a), broadcast_strides(al.b)};
}

Shape broadcast_shape(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    return align(a, b, spec).output;
}

bool broadcasts(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    try {
        align(a, b, spec);
        return true;
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::shape) throw;
        return false;
    }
}

}  // namespace core
