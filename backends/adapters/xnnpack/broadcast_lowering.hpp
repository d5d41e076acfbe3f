// How a converter lowers each broadcast rule to XNNPACK's one native rule (numpy, up to
// XNN_MAX_TENSOR_DIMS dims): the shapes the nd operators are called with, and the output shape.
#pragma once

#include <cstddef>
#include <vector>

#include "core/broadcast.hpp"
#include "core/tensor.hpp"

namespace backends::adapters::xnnpack {

struct LoweredShapes {
    std::vector<std::size_t> a, b;  // what xnn_setup_*_nd gets as input1_shape, input2_shape
    core::Shape output;             // the output a converter's shape inference allocates
};

// numpy: A and B unchanged and unchecked (XNNPACK checks them itself); the output takes the
// larger dim of each right-aligned pair. none: the shapes must be equal. onnx_legacy and pdpd:
// B is reshaped to A's rank (1s around B's dims from the axis), as ONNX and OpenVINO converters
// do. Throws core::Error(shape) when a converter's check rejects the shapes (rules other than
// numpy only).
LoweredShapes lower_shapes(const core::Shape& a, const core::Shape& b,
                           const core::BroadcastSpec& spec);

}  // namespace backends::adapters::xnnpack
