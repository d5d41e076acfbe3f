// Shape pairs per broadcast rule: compatible pairs, near misses (one change away from
// compatible), and arbitrary small pairs. Tensors stay small (at most 64 elements for compatible
// pairs, rank at most 5) so that every property runs many cases quickly.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/broadcast.hpp"

namespace generators {

struct ShapeCase {
    core::Shape a;
    core::Shape b;
    // pdpd: auto_broadcast_axis; onnx_legacy: axis; nullopt: the attribute is not given.
    std::optional<std::int64_t> axis;
};

std::string to_string(const ShapeCase& s);  // "(2,3) (3) axis=1"

// Pairs valid under the rule. numpy: rank 0, zero-size dims, size-1 stretching on both sides.
// pdpd: every valid axis, -1 explicit or by default, trailing 1s in B. onnx_legacy: with and
// without axis, one-element B. none: identical shapes.
rc::Gen<ShapeCase> compatible_shapes(core::BroadcastRule rule);

// Pairs one change away from valid: a dim that no longer lines up (for onnx_legacy a size-1 B
// dim where A has more: "1-dim expansion doesn't work yet"; for pdpd a B dim > 1 against an A
// dim 1), an axis that does not fit, or a rank(B) above rank(A).
rc::Gen<ShapeCase> near_miss_shapes(core::BroadcastRule rule);

// The pairs of `base` at the sizes kernels see: one dim value above 1 is replaced, in both
// shapes, by a length at or next to a vector width or tile boundary (7 .. 65537); since the
// replacement is one-to-one and keeps 0 and 1, the pair stays valid (or invalid) under every
// rule. numpy pairs sometimes get a leading dim, for rank 6. The output keeps at most
// `max_elements` elements. Shrinking leads back to the unscaled pair.
rc::Gen<ShapeCase> scaled_shapes(core::BroadcastRule rule, rc::Gen<ShapeCase> base,
                                 std::int64_t max_elements);

// Any small pair (dims 0..3, rank 0..4) with any axis the attribute rules accept: mostly invalid.
rc::Gen<ShapeCase> arbitrary_shapes(core::BroadcastRule rule);

}  // namespace generators
