// An OpenVINO IR <layer> element of Multiply-1 or Divide-1: its type and <data> attributes pick
// the op and its attributes, its port dims give the shapes. The spec's examples are such
// layers; so is any layer a user pastes from an IR file.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace io {

struct OpenVinoLayer {
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    std::vector<core::Shape> ports;  // inputs 0 and 1, then the output
};

// Example shapes are small: this cap keeps a hostile layer from asking for a huge tensor.
inline constexpr std::int64_t kMaxLayerElements = std::int64_t{1} << 14;

// Throws core::Error(input) prefixed with `where` for XML that is not well-formed, a layer type
// other than Multiply or Divide, ports other than two inputs and one output, a <dim> that is not
// a non-negative integer, a port of more than kMaxLayerElements elements, bad attributes, and an
// output port that is not the broadcast of the input ports.
OpenVinoLayer parse_openvino_layer(std::string_view xml, std::string_view where);

}  // namespace io
