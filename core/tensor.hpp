// A dense row-major tensor: element type, shape, and one contiguous buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/element_type.hpp"
#include "core/tensor_storage.hpp"

namespace core {

using Shape = std::vector<std::int64_t>;

// Tensor storage starts on a cache line, which is also one AVX-512 vector: the optimized kernels'
// vector loads and stores of whole tiles then never straddle two lines (a straddling 64-byte
// access costs about half the bandwidth of an aligned one on current x86 cores).
inline constexpr std::size_t kTensorAlignment = 64;

// std::allocator, except that construct() without a value default-initializes: resize() leaves
// bytes as they are. Outputs that a kernel overwrites in full then cost no zero fill. Storage is
// aligned to kTensorAlignment, and comes from core::allocate_tensor_bytes.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(allocate_tensor_bytes(n * sizeof(T), kTensorAlignment));
    }
    void deallocate(T* p, std::size_t) noexcept { release_tensor_bytes(p, kTensorAlignment); }
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

using Bytes = std::vector<std::byte, DefaultInitAllocator<std::byte>>;

// Ranks above this are rejected as invalid shapes (the specs set no limit; 8 is the usual floor).
inline constexpr std::size_t kMaxRank = 16;

std::string to_string(const Shape& shape);  // "(2,3,4)", a scalar is "()"

// Number of elements; throws Error(shape) on a negative dim, rank > kMaxRank, or overflow.
std::int64_t element_count(const Shape& shape);

struct Tensor {
    ElementType type = ElementType::f32;
    Shape shape;
    Bytes bytes;

    // A zero-filled tensor; throws Error(shape) if the byte size would overflow.
    static Tensor zeros(ElementType type, Shape shape);
    // The same with its bytes left as they are, for a caller that writes every element.
    static Tensor uninitialized(ElementType type, Shape shape);

    std::int64_t size() const { return static_cast<std::int64_t>(bytes.size() / byte_size(type)); }

    template <class T>
    std::span<T> values() {
        check_storage(sizeof(T));
        return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
    }
    template <class T>
    std::span<const T> values() const {
        check_storage(sizeof(T));
        return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
    }

  private:
    void check_storage(std::size_t element_size) const;
};

// A tensor's type, shape and bytes, owned elsewhere: an output compared where another process
// wrote it, without a copy. Valid as long as the bytes are.
struct TensorView {
    ElementType type = ElementType::f32;
    Shape shape;
    std::span<const std::byte> bytes;

    TensorView() = default;
    TensorView(ElementType type_, Shape shape_, std::span<const std::byte> bytes_)
        : type(type_), shape(std::move(shape_)), bytes(bytes_) {}
    TensorView(const Tensor& t) : type(t.type), shape(t.shape), bytes(t.bytes) {}  // NOLINT

    std::int64_t size() const { return static_cast<std::int64_t>(bytes.size() / byte_size(type)); }
    // Throws std::logic_error on a storage type of another size or unaligned bytes.
    template <class T>
    std::span<const T> values() const {
        check_storage(sizeof(T), alignof(T));
        return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
    }
    Tensor copy() const;

  private:
    void check_storage(std::size_t element_size, std::size_t alignment) const;
};

// Builds a tensor from typed values; the count must match the shape.
template <ElementType T>
Tensor make_tensor(Shape shape, const std::vector<Storage<T>>& values) {
    Tensor t = Tensor::zeros(T, std::move(shape));
    auto out = t.values<Storage<T>>();
    if (out.size() != values.size())
        throw std::logic_error("make_tensor: " + std::to_string(values.size()) +
                               " values for shape " + to_string(t.shape));
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = values[i];
    return t;
}

}  // namespace core
