#include "generators/op_combinations.hpp"

#include <stdexcept>

namespace generators {
namespace {

using core::BroadcastFamily;
using core::BroadcastRule;

constexpr BroadcastRule kRules[] = {BroadcastRule::none, BroadcastRule::numpy, BroadcastRule::pdpd,
                                    BroadcastRule::onnx_legacy};

BroadcastRule rule_named(std::string_view text) {
    for (BroadcastRule r : kRules)
        if (rule_name(r) == text) return r;
    throw std::logic_error("op table: unknown auto_broadcast value " + std::string(text));
}

// The rules a version offers, read from its attribute specs: auto_broadcast's allowed values;
// legacy broadcast=0 (identical shapes) and broadcast=1; multidirectional is numpy only.
std::vector<BroadcastRule> rules_of(const core::OpVersion& op) {
    switch (op.broadcast) {
        case BroadcastFamily::multidirectional:
            return {BroadcastRule::numpy};
        case BroadcastFamily::onnx_legacy:
            return {BroadcastRule::none, BroadcastRule::onnx_legacy};
        case BroadcastFamily::auto_broadcast: {
            std::vector<BroadcastRule> out;
            for (std::string_view v : op.attribute("auto_broadcast")->allowed)
                out.push_back(rule_named(v));
            return out;
        }
    }
    return {};
}

std::vector<std::optional<bool>> settings_of(const core::OpVersion& op) {
    if (op.rounding == core::DivisionRounding::pythondiv_attribute) return {true, false};
    return {std::nullopt};
}

std::vector<Combination> build() {
    std::vector<Combination> out;
    for (const core::OpVersion& op : core::op_versions())
        for (core::ElementType t : op.element_types)
            for (BroadcastRule rule : rules_of(op))
                for (std::optional<bool> setting : settings_of(op))
                    out.push_back({&op, t, rule, setting});
    return out;
}

std::string rule_attribute_name(BroadcastFamily family) {
    return family == BroadcastFamily::onnx_legacy ? "broadcast" : "auto_broadcast";
}

// The attribute's value that selects `rule` within the version's family.
std::string rule_value(const Combination& c) {
    if (c.op->broadcast == BroadcastFamily::onnx_legacy)
        return c.rule == BroadcastRule::none ? "0" : "1";
    return rule_name(c.rule);
}

}  // namespace

std::string rule_name(BroadcastRule rule) {
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
    return "?";
}

std::string Combination::name() const {
    std::string out = std::string(op->domain) + "_" + std::string(op->name) + "_" +
                      std::to_string(op->version) + "_" + std::string(core::name(type)) + "_" +
                      rule_name(rule);
    if (pythondiv) out += *pythondiv ? "_floor" : "_trunc";
    return out;
}

core::IntegerRounding Combination::expected_rounding() const {
    // docs/SEMANTICS.md section 2: ONNX Div truncates; Divide-1 floors with m_pythondiv=true.
    return pythondiv.value_or(false) ? core::IntegerRounding::floor
                                     : core::IntegerRounding::truncate;
}

const std::vector<Combination>& all_combinations() {
    static const std::vector<Combination> all = build();
    return all;
}

std::vector<Combination> combinations_where(const std::function<bool(const Combination&)>& keep) {
    std::vector<Combination> out;
    for (const Combination& c : all_combinations())
        if (keep(c)) out.push_back(c);
    return out;
}

core::AttributeMap attributes_for(const Combination& c, std::optional<std::int64_t> axis,
                                  bool omit_defaults) {
    core::AttributeMap out;
    if (c.op->broadcast != BroadcastFamily::multidirectional)
        out[rule_attribute_name(c.op->broadcast)] = rule_value(c);
    if (axis && c.rule == BroadcastRule::pdpd) out["auto_broadcast_axis"] = std::to_string(*axis);
    if (axis && c.rule == BroadcastRule::onnx_legacy) out["axis"] = std::to_string(*axis);
    if (c.pythondiv) out["m_pythondiv"] = *c.pythondiv ? "true" : "false";
    if (!omit_defaults) return out;
    std::erase_if(out, [&](const auto& entry) {
        const core::AttributeSpec* spec = c.op->attribute(entry.first);
        return spec && spec->default_value && *spec->default_value == entry.second;
    });
    return out;
}

void PrintTo(const Combination& c, std::ostream* os) {
    *os << c.name();
}

}  // namespace generators
