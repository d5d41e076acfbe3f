#include "oracle/float_format.hpp"

#include <stdexcept>
#include <string>

namespace oracle {

const FloatFormat& float_format(core::ElementType t) {
    switch (t) {
        case core::ElementType::f16:
            return kBinary16;
        case core::ElementType::bf16:
            return kBFloat16;
        case core::ElementType::f32:
            return kBinary32;
        case core::ElementType::f64:
            return kBinary64;
        default:
            break;
    }
    throw std::logic_error("oracle: " + std::string(core::name(t)) + " is not a float format");
}

}  // namespace oracle
