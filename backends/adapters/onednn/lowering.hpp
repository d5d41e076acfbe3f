// What a model converter does for oneDNN's binary primitive after the shared lowering
// (backends/adapters/converter_lowering.hpp): oneDNN wants src0, src1 and dst of one rank,
// where a source's size-1 dims broadcast to dst's. No oneDNN here, so that the lowering is
// testable on its own.
#pragma once

#include "core/broadcast.hpp"
#include "core/tensor.hpp"

namespace backends::adapters::onednn {

// The shapes of one oneDNN call, all of one rank (>= 1: oneDNN has no rank 0): src0, src1
// and dst; and the shape of the op's output, in the rank the spec gives it.
struct Lowered {
    core::Shape src0, src1, dst, output;
};

// The shared lowering, then numpy's prepended 1s made explicit and rank 0 -> [1]. Throws
// core::Error(shape) where the converter rejects the shapes. Numpy dims that neither match
// nor are 1 are left for oneDNN to reject: dst takes A's dim there.
Lowered lower(const core::BroadcastSpec& spec, const core::Shape& a, const core::Shape& b);

}  // namespace backends::adapters::onednn
