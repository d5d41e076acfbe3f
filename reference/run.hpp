// The scalar reference: every op version, evaluated literally, one output element at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace reference {

struct Output {
    core::Tensor value;
    // Flat output indices whose value the spec leaves undefined (integer division by zero),
    // ascending. Their slots in `value` hold 0 and must not be compared.
    std::vector<std::int64_t> undefined;
};

// Runs one op version on A and B. Throws core::Error for an element type the version does not
// allow, mixed or boolean inputs, an unknown or invalid attribute, or incompatible shapes.
Output run(const core::OpVersion& op, const core::AttributeMap& attributes, const core::Tensor& a,
           const core::Tensor& b);

}  // namespace reference
