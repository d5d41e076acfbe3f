// Where tensors' bytes come from: the heap, unless a program installs other memory. A validator
// that hands its tensors to a backend process installs memory both can map
// (backends/shared_tensors.hpp), so that an input is read where it lies and never copied.
#pragma once

#include <cstddef>

namespace core {

// Both functions must be thread-safe. `allocate` returns nullptr when it has no room (the heap
// then serves); `release` returns false for a block that is not its own.
struct TensorStorage {
    void* (*allocate)(std::size_t bytes);
    bool (*release)(void* block);
};

// Every later tensor allocation tries `storage` first. Once per process; it stays installed.
// Returns false (and changes nothing) when storage was already installed.
bool install_tensor_storage(TensorStorage storage);

// `bytes` (> 0) aligned to `alignment`, from the installed storage or else the heap.
void* allocate_tensor_bytes(std::size_t bytes, std::size_t alignment);
void release_tensor_bytes(void* block, std::size_t alignment) noexcept;

}  // namespace core
