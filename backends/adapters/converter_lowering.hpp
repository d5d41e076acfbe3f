// How a model converter lowers the suite's broadcast rules to a library whose one native rule
// is numpy's: ONNX legacy and pdpd become a reshape of B into A's rank. Shared by the adapters
// of libraries that broadcast only the numpy way (XNNPACK, oneDNN).
#pragma once

#include "core/broadcast.hpp"
#include "core/tensor.hpp"

namespace backends::adapters {

struct LoweredShapes {
    core::Shape a, b;    // what the library's numpy-broadcasting call gets
    core::Shape output;  // the output a converter's shape inference allocates
};

// numpy: A and B unchanged and unchecked (the library checks them itself, and the adapter must
// not pre-empt its answer); the output takes the larger dim of each right-aligned pair. none:
// the shapes must be equal. onnx_legacy and pdpd: B is reshaped to A's rank (1s around B's dims
// from the axis), as ONNX and OpenVINO converters do. Throws core::Error(shape) for a negative
// dim, or when a converter's check rejects the shapes (rules other than numpy).
LoweredShapes lower_shapes(const core::Shape& a, const core::Shape& b,
                           const core::BroadcastSpec& spec);

}  // namespace backends::adapters
