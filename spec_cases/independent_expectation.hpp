// Expected outputs computed straight from the spec text, sharing no code with core's broadcast
// plan or the reference's arithmetic. Only for operands whose results are exact (see fill_*).
#pragma once

#include <optional>

#include "core/broadcast.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace spec_cases {

// Small operands whose every product and quotient is exact in every element type (even bf16):
// dividends cycle through -7..7 (0..14 unsigned), divisors through 1, 2, 4, -1, -2, -4
// (1, 2, 4 unsigned). Never zero, so no quotient is undefined.
core::Tensor fill_dividends(core::ElementType type, const core::Shape& shape);
core::Tensor fill_divisors(core::ElementType type, const core::Shape& shape);

// How the spec places A and B in the output, read directly from the rule's wording.
struct Placement {
    core::BroadcastRule rule = core::BroadcastRule::numpy;
    std::optional<std::int64_t> axis;  // pdpd / onnx legacy axis as written in the case
};

// out = A op B elementwise on `output_shape`. `floor` selects floor division for integers.
core::OpOutput expected_output(core::Arithmetic arithmetic, bool floor, const Placement& placement,
                               const core::Tensor& a, const core::Tensor& b,
                               const core::Shape& output_shape);

}  // namespace spec_cases
