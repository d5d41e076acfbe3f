// Independent on purpose (see element_mapping.hpp): it switches on the broadcast rules itself
// and asks core/broadcast nothing, so that it can check core, the reference and the rest.
#include "oracle/element_mapping.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace oracle {
namespace {

using core::Shape;

// Both inputs stretched to the output's rank: size-1 dims inserted where an input has no dim,
// which leaves each input's row-major flat indexing unchanged.
struct Alignment {
    Shape output;
    Shape a;
    Shape b;
};

std::string rule_text(const core::BroadcastSpec& spec) {
    switch (spec.rule) {
        case core::BroadcastRule::none:
            return "none";
        case core::BroadcastRule::numpy:
            return "numpy";
        case core::BroadcastRule::pdpd:
            return "pdpd axis=" + std::to_string(spec.axis.value_or(-1));
        case core::BroadcastRule::onnx_legacy:
            return spec.axis ? "onnx legacy broadcast=1 axis=" + std::to_string(*spec.axis)
                             : "onnx legacy broadcast=1 (no axis)";
    }
    return "?";
}

[[noreturn]] void reject(const Shape& a, const Shape& b, const core::BroadcastSpec& spec,
                         const std::string& why) {
    throw core::Error(core::ErrorKind::shape,
                      "shapes A=" + core::to_string(a) + " and B=" + core::to_string(b) +
                          " are incompatible under " + rule_text(spec) + " broadcasting: " + why);
}

long long rank_of(const Shape& s) {
    return static_cast<long long>(s.size());
}

// none: identical shapes.
Alignment align_none(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    if (a != b) reject(a, b, spec, "the shapes must be identical");
    return {a, a, b};
}

// numpy: right-aligned; each pair of dims equal or one of them 1, which stretches (a 1 against
// a 0 gives 0).
Alignment align_numpy(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    const std::size_t rank = std::max(a.size(), b.size());
    Alignment out{Shape(rank, 1), Shape(rank - a.size(), 1), Shape(rank - b.size(), 1)};
    out.a.insert(out.a.end(), a.begin(), a.end());
    out.b.insert(out.b.end(), b.begin(), b.end());
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t x = out.a[d], y = out.b[d];
        if (x != y && x != 1 && y != 1)
            reject(a, b, spec,
                   "dims " + std::to_string(x) + " and " + std::to_string(y) + " (output dim " +
                       std::to_string(d) + ") are neither equal nor 1");
        out.output[d] = x == 1 ? y : x;
    }
    return out;
}

// B placed inside A's rank at `start`, size-1 dims everywhere else.
Shape place(const Shape& a, const Shape& b_kept, long long start) {
    Shape out(a.size(), 1);
    std::copy(b_kept.begin(), b_kept.end(), out.begin() + start);
    return out;
}

// pdpd (OpenVINO): rank(B) <= rank(A); axis -1 means rank(A) - rank(B) with B's rank as given;
// B's trailing 1s are then dropped; each kept dim equals A's dim at axis + j or is 1.
Alignment align_pdpd(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    if (b.size() > a.size()) reject(a, b, spec, "B's rank exceeds A's (only B broadcasts)");
    long long axis = spec.axis.value_or(-1);
    if (axis < -1) reject(a, b, spec, "axis must be -1 or non-negative");
    if (axis == -1) axis = rank_of(a) - rank_of(b);
    Shape kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    if (axis > rank_of(a) - rank_of(kept))
        reject(a, b, spec, "B's dims (trailing 1s dropped) do not fit in A at the axis");
    for (std::size_t j = 0; j < kept.size(); ++j) {
        const std::int64_t x = a[static_cast<std::size_t>(axis) + j];
        if (kept[j] != x && kept[j] != 1)
            reject(a, b, spec,
                   "B's dim " + std::to_string(kept[j]) + " is neither A's dim " +
                       std::to_string(x) + " nor 1");
    }
    return {a, a, place(a, kept, axis)};
}

// ONNX Mul-1/6 broadcast=1: B is one element, or equals a contiguous run of A's dims starting
// at axis (suffix-aligned without axis) exactly: "1-dim expansion doesn't work yet".
Alignment align_onnx_legacy(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    if (b.size() > a.size()) reject(a, b, spec, "B's rank exceeds A's (only B broadcasts)");
    if (spec.axis && (*spec.axis < 0 || *spec.axis > rank_of(a) - rank_of(b)))
        reject(a, b, spec, "B's dims do not fit in A at the axis");
    const Shape ones(a.size(), 1);
    if (core::element_count(b) == 1) return {a, a, ones};
    const long long start = spec.axis ? *spec.axis : rank_of(a) - rank_of(b);
    if (!std::equal(b.begin(), b.end(), a.begin() + start))
        reject(a, b, spec, "B's shape must equal A's dims from position " + std::to_string(start));
    return {a, a, place(a, b, start)};
}

Alignment align(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    core::element_count(a);  // throws on a negative dim, too high a rank, or overflow
    core::element_count(b);
    switch (spec.rule) {
        case core::BroadcastRule::none:
            return align_none(a, b, spec);
        case core::BroadcastRule::numpy:
            return align_numpy(a, b, spec);
        case core::BroadcastRule::pdpd:
            return align_pdpd(a, b, spec);
        case core::BroadcastRule::onnx_legacy:
            return align_onnx_legacy(a, b, spec);
    }
    throw core::Error(core::ErrorKind::shape, "unknown broadcast rule");
}

// Row-major flat index into an aligned input of the output coordinate: a size-1 dim always
// contributes coordinate 0 (that is the broadcast).
std::int64_t flat_index(const Shape& dims, const std::vector<std::int64_t>& coordinate) {
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < dims.size(); ++d)
        flat = flat * dims[d] + (dims[d] == 1 ? 0 : coordinate[d]);
    return flat;
}

// Advances a row-major coordinate (odometer, last dim fastest).
void advance(const Shape& dims, std::vector<std::int64_t>& coordinate) {
    for (std::size_t d = dims.size(); d-- > 0;) {
        if (++coordinate[d] < dims[d]) return;
        coordinate[d] = 0;
    }
}

// The row-major coordinate of a flat index.
std::vector<std::int64_t> coordinate_of(const Shape& dims, std::int64_t flat) {
    std::vector<std::int64_t> coordinate(dims.size(), 0);
    for (std::size_t d = dims.size(); d-- > 0;) {
        coordinate[d] = flat % dims[d];
        flat /= dims[d];
    }
    return coordinate;
}

}  // namespace

core::Shape output_shape(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    Shape out = align(a, b, spec).output;
    core::element_count(out);
    return out;
}

ElementMapping map_elements(const Shape& a, const Shape& b, const core::BroadcastSpec& spec) {
    const Alignment al = align(a, b, spec);
    const std::int64_t count = core::element_count(al.output);
    ElementMapping m{al.output, {}, {}};
    m.a_index.reserve(static_cast<std::size_t>(count));
    m.b_index.reserve(static_cast<std::size_t>(count));
    std::vector<std::int64_t> coordinate(al.output.size(), 0);
    for (std::int64_t i = 0; i < count; ++i) {
        m.a_index.push_back(flat_index(al.a, coordinate));
        m.b_index.push_back(flat_index(al.b, coordinate));
        advance(al.output, coordinate);
    }
    return m;
}

ElementMapping map_elements_at(const Shape& a, const Shape& b, const core::BroadcastSpec& spec,
                               const std::vector<std::int64_t>& output_indices) {
    const Alignment al = align(a, b, spec);
    const std::int64_t count = core::element_count(al.output);
    ElementMapping m{al.output, {}, {}};
    for (const std::int64_t i : output_indices) {
        if (i < 0 || i >= count)
            throw std::out_of_range("oracle: output index " + std::to_string(i) +
                                    " outside the output's " + std::to_string(count) + " elements");
        const std::vector<std::int64_t> coordinate = coordinate_of(al.output, i);
        m.a_index.push_back(flat_index(al.a, coordinate));
        m.b_index.push_back(flat_index(al.b, coordinate));
    }
    return m;
}

}  // namespace oracle
