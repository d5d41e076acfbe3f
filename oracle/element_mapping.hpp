// The oracle's own broadcasting (docs/SEMANTICS.md section 3), written independently of
// core/broadcast: which shapes each rule accepts, the output shape, and for every output
// element the flat indices of the A and B elements it combines.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace oracle {

struct ElementMapping {
    core::Shape output;
    std::vector<std::int64_t> a_index;  // per flat output index (row-major), A's flat index
    std::vector<std::int64_t> b_index;  // likewise for B
};

// Throws core::Error(shape) naming both shapes and the rule when the rule rejects them, and for
// invalid shapes (negative dims, rank above core::kMaxRank, element counts overflowing 64 bits).
core::Shape output_shape(const core::Shape& a, const core::Shape& b,
                         const core::BroadcastSpec& spec);
ElementMapping map_elements(const core::Shape& a, const core::Shape& b,
                            const core::BroadcastSpec& spec);
// The same for the given flat output indices only, in their order; throws std::out_of_range
// for an index outside the output.
ElementMapping map_elements_at(const core::Shape& a, const core::Shape& b,
                               const core::BroadcastSpec& spec,
                               const std::vector<std::int64_t>& output_indices);

}  // namespace oracle
