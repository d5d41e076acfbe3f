#include "generators/op_combinations.hpp"

namespace generators {
namespace {

// Versions whose rounding follows m_pythondiv once per value, its default (true) first.
std::vector<std::optional<bool>> settings_of(const core::OpVersion& op) {
    const std::vector<core::IntegerRounding> roundings = core::integer_roundings(op);
    if (roundings.size() < 2) return {std::nullopt};
    std::vector<std::optional<bool>> out;
    for (core::IntegerRounding r : roundings)
        out.push_back(core::floors(r));
    return out;
}

std::vector<Combination> build() {
    std::vector<Combination> out;
    for (const core::OpVersion& op : core::op_versions())
        for (core::ElementType t : op.element_types)
            for (core::BroadcastRule rule : core::broadcast_rules(op))
                for (std::optional<bool> setting : settings_of(op))
                    out.push_back({&op, t, rule, setting});
    return out;
}

}  // namespace

std::string Combination::name() const {
    std::string out = std::string(op->domain) + "_" + std::string(op->name) + "_" +
                      std::to_string(op->version) + "_" + std::string(core::name(type)) + "_" +
                      std::string(core::name(rule));
    if (pythondiv) out += "_" + std::string(core::name(core::floor_if(*pythondiv)));
    return out;
}

core::IntegerRounding Combination::expected_rounding() const {
    // docs/SEMANTICS.md section 2: ONNX Div truncates; Divide-1 floors with m_pythondiv=true.
    return core::floor_if(pythondiv.value_or(false));
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
    core::AttributeMap out = *core::rule_attributes(*c.op, c.rule, axis);  // c.op offers c.rule
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
