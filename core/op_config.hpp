// Validating a call of one op version: element types, attributes, and what they resolve to.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/broadcast.hpp"
#include "core/integer_rounding.hpp"
#include "core/op_table.hpp"

namespace core {

// Attribute values as text, the way IR XML, ONNX attributes and the CLI spell them.
using AttributeMap = std::map<std::string, std::string>;

// What a version's attributes mean for one call.
struct OpConfig {
    BroadcastSpec broadcast;
    IntegerRounding rounding = IntegerRounding::truncate;  // integer division only
};

// The broadcast rules a version's calls can resolve to, whatever their attributes.
std::vector<BroadcastRule> broadcast_rules(const OpVersion& op);

// The attributes that select `rule` on `op`, spelled out in full (`auto_broadcast=numpy`,
// `broadcast=0`), with `axis` as pdpd's auto_broadcast_axis or legacy's axis (ignored for a rule
// without one). nullopt when `op` does not offer the rule.
std::optional<AttributeMap> rule_attributes(const OpVersion& op, BroadcastRule rule,
                                            std::optional<std::int64_t> axis);

// The integer roundings a version's calls can resolve to, its default first: none for a
// multiplication, {truncate} for ONNX Div, {floor, truncate} for Divide-1 (m_pythondiv).
std::vector<IntegerRounding> integer_roundings(const OpVersion& op);
// The attributes that select `rounding` on `op` ({} when it is the only one); nullopt when
// `op` cannot round that way.
std::optional<AttributeMap> rounding_attributes(const OpVersion& op, IntegerRounding rounding);

// Throws Error(attribute) on an unknown attribute, a value of the wrong type or out of range.
OpConfig resolve_attributes(const OpVersion& op, const AttributeMap& attributes);

// Throws Error(element_type) on boolean inputs, mixed types, or a type the version lacks.
void check_element_types(const OpVersion& op, ElementType a, ElementType b);

// Everything an implementation needs for one call, validated in the order the specs check.
struct PreparedCall {
    const OpVersion* op;
    ElementType type;
    OpConfig config;
    BroadcastPlan plan;
};
PreparedCall prepare_call(const OpVersion& op, const AttributeMap& attributes, const Tensor& a,
                          const Tensor& b);
// The same from the inputs' types and shapes alone.
PreparedCall prepare_call(const OpVersion& op, const AttributeMap& attributes, ElementType a_type,
                          const Shape& a_shape, ElementType b_type, const Shape& b_shape);

}  // namespace core
