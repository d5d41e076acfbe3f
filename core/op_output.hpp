// What one evaluation of an op version produces.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.hpp"

namespace core {

struct OpOutput {
    Tensor value;
    // Flat output indices whose value the spec leaves undefined (integer division by zero),
    // ascending. Their slots in `value` hold 0 and are never compared.
    std::vector<std::int64_t> undefined;
};

}  // namespace core
