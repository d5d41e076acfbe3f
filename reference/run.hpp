// The scalar reference: every op version, evaluated literally, one output element at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/tensor.hpp"

namespace reference {

using Output = core::OpOutput;

// Runs one op version on A and B. Throws core::Error for an element type the version does not
// allow, mixed or boolean inputs, an unknown or invalid attribute, or incompatible shapes.
Output run(const core::OpVersion& op, const core::AttributeMap& attributes, const core::Tensor& a,
           const core::Tensor& b);
// The same for the call core::prepare_call made of these inputs.
Output run_prepared(const core::PreparedCall& call, const core::Tensor& a, const core::Tensor& b);

}  // namespace reference
