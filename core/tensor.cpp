#include "core/tensor.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"

namespace core {

std::string to_string(const Shape& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(shape[i]);
    }
    return s + ")";
}

std::int64_t element_count(const Shape& shape) {
    if (shape.size() > kMaxRank)
        throw Error(ErrorKind::shape, "shape " + to_string(shape) + " has rank " +
                                          std::to_string(shape.size()) + ", above the limit of " +
                                          std::to_string(kMaxRank));
    for (std::int64_t d : shape)
        if (d < 0)
            throw Error(ErrorKind::shape, "shape " + to_string(shape) +
                                              " has a negative dimension " + std::to_string(d));
    // A zero dim makes the tensor empty however large the other dims are.
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
    std::int64_t count = 1;
    for (std::int64_t d : shape) {
        if (count > std::numeric_limits<std::int64_t>::max() / d)
            throw Error(ErrorKind::shape,
                        "shape " + to_string(shape) + ": element count overflows 64 bits");
        count *= d;
    }
    return count;
}

Tensor Tensor::uninitialized(ElementType type, Shape shape) {
    const std::int64_t count = element_count(shape);
    const auto size = static_cast<std::int64_t>(byte_size(type));
    if (count > std::numeric_limits<std::ptrdiff_t>::max() / size)
        throw Error(ErrorKind::shape, "shape " + to_string(shape) + " of " +
                                          std::string(name(type)) + ": byte size overflows");
    Tensor t;
    t.type = type;
    t.shape = std::move(shape);
    t.bytes.resize(static_cast<std::size_t>(count * size));
    return t;
}

Tensor Tensor::zeros(ElementType type, Shape shape) {
    Tensor t = uninitialized(type, std::move(shape));
    std::fill(t.bytes.begin(), t.bytes.end(), std::byte{0});
    return t;
}

void Tensor::check_storage(std::size_t element_size) const {
    if (element_size != byte_size(type))
        throw std::logic_error("tensor of " + std::string(name(type)) +
                               " accessed with a storage type of another size");
}

Tensor TensorView::copy() const {
    Tensor t{type, shape, {}};
    t.bytes.assign(bytes.begin(), bytes.end());
    return t;
}

void TensorView::check_storage(std::size_t element_size, std::size_t alignment) const {
    if (element_size != byte_size(type))
        throw std::logic_error("tensor view of " + std::string(name(type)) +
                               " accessed with a storage type of another size");
    if (reinterpret_cast<std::uintptr_t>(bytes.data()) % alignment != 0)
        throw std::logic_error("tensor view of " + std::string(name(type)) +
                               " whose bytes are not aligned to its element");
}

}  // namespace core
