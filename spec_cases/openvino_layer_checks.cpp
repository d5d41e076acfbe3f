#include "spec_cases/openvino_layer_checks.hpp"

#include "core/error.hpp"
#include "spec_cases/independent_expectation.hpp"

namespace spec_cases {
namespace {

using io::OpenVinoLayer;

// The example's rule and rounding, read from its <data> element as the spec words them
// (auto_broadcast defaults to numpy). The examples use none and numpy only, so no axis.
Placement placement_of(const OpenVinoLayer& layer) {
    const auto it = layer.attributes.find("auto_broadcast");
    if (it == layer.attributes.end()) return {core::kDefaultBroadcastRule, std::nullopt};
    const auto rule = core::broadcast_rule_named(it->second);
    if (!rule)
        throw core::Error(core::ErrorKind::attribute,
                          layer.op->id() + ": unknown auto_broadcast '" + it->second + "'");
    return {*rule, std::nullopt};
}

bool floors(const OpenVinoLayer& layer) {
    const auto it = layer.attributes.find("m_pythondiv");
    return it == layer.attributes.end() || it->second == "true";
}

}  // namespace

std::vector<core::CaseRecord> layer_checks(const OpenVinoLayer& layer) {
    std::vector<core::CaseRecord> checks;
    for (core::ElementType type : layer.op->element_types) {
        core::CaseRecord c{layer.op->id() + " " + std::string(core::name(type)), layer.op,
                           layer.attributes, fill_dividends(type, layer.ports[0]),
                           fill_divisors(type, layer.ports[1])};
        c.expected.output = expected_output(layer.op->arithmetic, floors(layer),
                                            placement_of(layer), c.a, c.b, layer.ports[2]);
        checks.push_back(std::move(c));
    }
    return checks;
}

}  // namespace spec_cases
