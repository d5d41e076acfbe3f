// The oracle: every op version evaluated with exact arithmetic (Boost.Multiprecision), then
// rounded explicitly into the output type. It shares no arithmetic and no broadcast mapping with
// reference/ or core/broadcast, so the two cannot share a bug there.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace oracle {

// Same contract as reference::run: the output, with the flat indices of undefined elements
// (integer division by zero) ascending; throws core::Error for what the spec rejects.
// Element types and attributes are validated by core (check_element_types,
// resolve_attributes); shape compatibility and the element mapping are the oracle's own.
core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b);

// One output element: its encoding (zero-extended to 64 bits), or that the spec leaves it
// undefined (its bits are then 0).
struct Element {
    std::uint64_t bits;
    bool undefined;
};

// The output elements at the given flat indices (row-major), as run() gives them, without
// computing the others: a sample of a large output. Throws as run() does, and
// std::out_of_range for an index outside the output.
std::vector<Element> run_at(const core::OpVersion& op, const core::AttributeMap& attributes,
                            const core::Tensor& a, const core::Tensor& b,
                            const std::vector<std::int64_t>& output_indices);

}  // namespace oracle
