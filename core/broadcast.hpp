// Broadcasting: shape inference and the output-index -> input-offset mapping for every rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor.hpp"

namespace core {

enum class BroadcastRule {
    none,         // shapes must be identical
    numpy,        // multidirectional: right-aligned, 1 stretches on either side
    pdpd,         // B onto A from `axis`; B's trailing 1s dropped; 1 stretches in B only
    onnx_legacy,  // ONNX-1/6 broadcast=1: B is one element or a contiguous run of A's dims
};

// Every rule, in enum order: for generators, listings and name lookups.
inline constexpr BroadcastRule kBroadcastRules[] = {
    BroadcastRule::none, BroadcastRule::numpy, BroadcastRule::pdpd, BroadcastRule::onnx_legacy};

// ONNX-7+'s only rule and auto_broadcast's default.
inline constexpr BroadcastRule kDefaultBroadcastRule = BroadcastRule::numpy;

// "none", "numpy", "pdpd", "onnx_legacy": the rule's name in profiles, spec tables and case ids.
std::string_view name(BroadcastRule rule);
// The rule with that name, if any; broadcast_rule_names() lists them ("none, numpy, ...").
std::optional<BroadcastRule> broadcast_rule_named(std::string_view text);
std::string broadcast_rule_names();

// Whether the rule stretches a size-1 dim to the other input's extent (numpy on either side,
// pdpd in B); none wants identical shapes and ONNX legacy "1-dim expansion doesn't work yet".
bool stretches_size_one_dims(BroadcastRule rule);
// Whether the rule reads an axis attribute: pdpd's auto_broadcast_axis, legacy's axis.
bool takes_axis(BroadcastRule rule);

struct BroadcastSpec {
    BroadcastRule rule = kDefaultBroadcastRule;
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
// Whether broadcast_shape would accept the shapes (it throws no Error(shape)).
bool broadcasts(const Shape& a, const Shape& b, const BroadcastSpec& spec);

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
