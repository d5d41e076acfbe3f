#include "core/error.hpp"

namespace core {

const char* name(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::shape:
            return "shape";
        case ErrorKind::element_type:
            return "element type";
        case ErrorKind::attribute:
            return "attribute";
        case ErrorKind::input:
            return "input";
    }
    return "?";
}

}  // namespace core
