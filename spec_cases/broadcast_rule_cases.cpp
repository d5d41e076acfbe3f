// Broadcast-rule examples (data/broadcast_examples.txt): accept or reject, the output shape, and
// the values, on every op version that offers the rule.
#include "core/error.hpp"
#include "spec_cases/case_builders.hpp"
#include "spec_cases/independent_expectation.hpp"
#include "spec_cases/table_text.hpp"

namespace spec_cases {
namespace {

constexpr std::string_view kBroadcastTable = "broadcast_examples.txt";

core::BroadcastRule parse_rule(const TableRow& row) {
    const std::string& r = row.fields[0];
    const auto rule = core::broadcast_rule_named(r);
    if (!rule) fail(row, "unknown rule '" + r + "'");
    return *rule;
}

std::string shape_name(const core::Shape& s) {
    if (s.empty()) return "scalar";
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i)
        out += (i ? "x" : "") + std::to_string(s[i]);
    return out;
}

std::optional<std::int64_t> axis_of(const core::AttributeMap& attributes) {
    const auto it = attributes.find("axis");
    if (it == attributes.end()) return std::nullopt;
    return std::stoll(it->second);
}

struct Example {
    core::BroadcastRule rule;
    core::Shape a, b;
    core::AttributeMap attributes;  // axis=, broadcast= as written
    std::optional<core::Shape> result;
    core::ErrorKind error = core::ErrorKind::shape;  // when there is no result
};

std::vector<RuleBinding> bindings(const Example& e) {
    if (e.rule != core::BroadcastRule::onnx_legacy)
        return versions_offering(e.rule, axis_of(e.attributes));
    std::vector<RuleBinding> out;
    for (const core::OpVersion& op : core::op_versions())
        if (op.broadcast == core::BroadcastFamily::onnx_legacy) out.push_back({&op, e.attributes});
    return out;
}

Placement placement_of(const Example& e) {
    const bool legacy_off = e.rule == core::BroadcastRule::onnx_legacy &&
                            e.attributes.count("broadcast") && e.attributes.at("broadcast") == "0";
    return {legacy_off ? core::BroadcastRule::none : e.rule, axis_of(e.attributes)};
}

std::vector<core::CaseRecord> example_checks(const Example& e) {
    constexpr auto type = core::ElementType::f32;
    std::vector<core::CaseRecord> checks;
    for (const RuleBinding& binding : bindings(e)) {
        core::CaseRecord c{binding.op->id(), binding.op, binding.attributes,
                           fill_dividends(type, e.a), fill_divisors(type, e.b)};
        c.valid = e.result.has_value();
        if (!e.result)
            c.expected.error = e.error;
        else
            c.expected.output = expected_output(binding.op->arithmetic, false, placement_of(e), c.a,
                                                c.b, *e.result);
        checks.push_back(std::move(c));
    }
    return checks;
}

std::string case_name(const TableRow& row, const Example& e) {
    std::string name =
        "broadcast." + row.fields[0] + "." + shape_name(e.a) + "_by_" + shape_name(e.b);
    for (const auto& [k, v] : e.attributes)
        name += "_" + k + v;
    return name;
}

}  // namespace

std::vector<RuleBinding> versions_offering(core::BroadcastRule rule,
                                           std::optional<std::int64_t> axis) {
    std::vector<RuleBinding> out;
    for (const core::OpVersion& op : core::op_versions()) {
        switch (op.broadcast) {
            case core::BroadcastFamily::auto_broadcast:  // auto_broadcast=RULE, pdpd's axis
                if (const auto attributes = core::rule_attributes(op, rule, axis))
                    out.push_back({&op, *attributes});
                break;
            case core::BroadcastFamily::multidirectional:
                if (rule == core::BroadcastRule::numpy) out.push_back({&op, {}});
                break;
            case core::BroadcastFamily::onnx_legacy:
                if (rule == core::BroadcastRule::none) out.push_back({&op, {}});
                if (rule == core::BroadcastRule::onnx_legacy) {
                    core::AttributeMap attributes{{"broadcast", "1"}};
                    if (axis) attributes["axis"] = std::to_string(*axis);
                    out.push_back({&op, attributes});
                }
                break;
        }
    }
    return out;
}

std::vector<SpecCase> broadcast_rule_cases() {
    std::vector<SpecCase> cases;
    for (const TableRow& row : read_table(kBroadcastTable, 5)) {
        Example e{parse_rule(row), parse_shape(row.fields[1]), parse_shape(row.fields[2]),
                  parse_attributes(row.fields[3]), std::nullopt};
        const std::string& result = row.fields[4];
        if (result == "error:attribute")
            e.error = core::ErrorKind::attribute;
        else if (result != "error")
            e.result = parse_shape(result);
        cases.push_back({case_name(row, e), "broadcast rule example (" + row.where + ")",
                         e.result ? Category::spec_value : Category::rejects_invalid,
                         [e] { return example_checks(e); }});
    }
    return cases;
}

}  // namespace spec_cases
