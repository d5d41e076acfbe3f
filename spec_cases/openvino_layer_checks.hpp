// The checks of an OpenVINO IR layer (io/openvino_layer_xml.hpp): its ports' shapes with exact
// operands, expected outputs from the spec's rules.
#pragma once

#include <vector>

#include "io/openvino_layer_xml.hpp"
#include "spec_cases/spec_case.hpp"

namespace spec_cases {

// One check per element type the op allows, on exact operands, with the expected output from
// the spec's rules (the output port's shape must be the broadcast result). Throws core::Error.
std::vector<core::CaseRecord> layer_checks(const io::OpenVinoLayer& layer);

}  // namespace spec_cases
