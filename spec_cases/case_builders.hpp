// The families of spec cases; all_spec_cases() concatenates them.
#pragma once

#include <vector>

#include "spec_cases/spec_case.hpp"

namespace spec_cases {

std::vector<SpecCase> openvino_xml_cases();    // the OpenVINO specs' <layer> examples
std::vector<SpecCase> value_example_cases();   // values written in the specs
std::vector<SpecCase> onnx_testdata_cases();   // ONNX's node tests for Mul and Div
std::vector<SpecCase> broadcast_rule_cases();  // broadcast-rule examples, valid and failing
std::vector<SpecCase> edge_value_cases();      // hand-computed edge-value tables

// Every op version whose attributes can select `rule`, with those attributes
// (e.g. numpy -> openvino auto_broadcast=numpy and ONNX-7+ with none).
struct RuleBinding {
    const core::OpVersion* op;
    core::AttributeMap attributes;
};
std::vector<RuleBinding> versions_offering(core::BroadcastRule rule,
                                           std::optional<std::int64_t> axis);

}  // namespace spec_cases
