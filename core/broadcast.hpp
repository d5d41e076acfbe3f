// Broadcasting: shape inference and the output-index -> input-offset mapping for every rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace core {

enum class BroadcastRule {
    none,         // shapes must be identical
    numpy,        // multidirectional: right-aligned, 1 stretches on either side
    pdpd,         // B onto A from `axis`; B's trailing 1s dropped; 1 stretches in B only
    onnx_legacy,  // ONNX-1/6 broadcast=1: B is one element or a contiguous run of A's dims
};

struct BroadcastSpec {
    BroadcastRule rule = BroadcastRule::numpy;
    // pdpd: -1 means rank(A) - rank(B). onnx_legacy: unset means suffix matching.
    std::optional<std::int64_t> axis;
};

std::string to_string(const BroadcastSpec& spec);  // "numpy", "pdpd axis=-1", ...

// Output shape, element strides of A and B per output dim (0 where the input is broadcast).
struct BroadcastPlan {
    Shape output;
    std::vector<std::int64_t> a_strides;
    std::vector<std::int64_t> b_strides;
};

// Throws Error(shape) naming both shapes, the rule and the reason when they are incompatible.
BroadcastPlan make_plan(const Shape& a, const Shape& b, const BroadcastSpec& spec);
Shape broadcast_shape(const Shape& a, const Shape& b, const BroadcastSpec& spec);

// Calls f(flat output index, A offset, B offset) for every output element, in order.
template <class F>
void for_each_offset(const BroadcastPlan& plan, F&& f) {
    std::int64_t n = 1;
    for (std::int64_t d : plan.output)
        n *= d;
    const std::size_t rank = plan.output.size();
    std::vector<std::int64_t> index(rank, 0);
    std::int64_t ia = 0, ib = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        f(i, ia, ib);
        for (std::size_t d = rank; d-- > 0;) {
            ia += plan.a_strides[d];
            ib += plan.b_strides[d];
            if (++index[d] < plan.output[d]) break;
            ia -= index[d] * plan.a_strides[d];
            ib -= index[d] * plan.b_strides[d];
            index[d] = 0;
        }
    }
}

}  // namespace core
