// An independent reading of docs/SEMANTICS.md section 3: output shapes and the output-index ->
// input-offset mapping for every broadcast rule, written without core/broadcast so that the
// properties can check core, reference and oracle against it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "core/broadcast.hpp"

namespace generators {

// Both inputs' extents laid out in the output's rank; an input's extent is 1 along every output
// dim it is broadcast over.
struct Layout {
    core::Shape output;
    core::Shape a;
    core::Shape b;
};

// The layout, or nullopt when the shapes (or the axis) are invalid under the rule.
// `axis`: pdpd auto_broadcast_axis (nullopt: the default -1); onnx_legacy axis (nullopt: unset).
std::optional<Layout> model_layout(core::BroadcastRule rule, const core::Shape& a,
                                   const core::Shape& b, std::optional<std::int64_t> axis);

// Flat offsets into A and B of flat output element i (row-major).
std::pair<std::int64_t, std::int64_t> input_offsets(const Layout& layout, std::int64_t i);

// Product of the dims (1 for a scalar).
std::int64_t elements(const core::Shape& shape);

}  // namespace generators
