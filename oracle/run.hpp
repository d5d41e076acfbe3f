// The oracle: every op version evaluated with exact arithmetic (Boost.Multiprecision), then
// rounded explicitly into the output type. It shares no arithmetic and no broadcast mapping with
// reference/ or core/broadcast, so the two cannot share a bug there.
#pragma once

#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace oracle {

// Same contract as reference::run: the output, with the flat indices of undefined elements
// (integer division by zero) ascending; throws core::Error for what the spec rejects.
// Element types and attributes are validated by core (check_element_types,
// resolve_attributes); shape compatibility and the element mapping are the oracle's own.
core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b);

}  // namespace oracle
