// Shared tensor memory (PROTOCOL.md section 9, item 18): once set up, one memfd holds the bytes
// of every tensor of 64 KiB or more that the process makes, each behind room for its .npy
// header. A backend maps it read-only and reads a request's inputs where they lie: no large
// input is written out or copied for it. The memfd is sealed against every write but this
// process's own mapping, and sparse: a page takes memory once a tensor uses it, and keeps it for
// the next tensor there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace backends {

// Sets the memory up and routes the storage of every later tensor to it
// (core::install_tensor_storage), once per process. False when it cannot be had: tensors then
// stay on the heap, and inputs go as files.
bool share_tensors();

// A block of the shared memory, given back when destroyed.
struct SharedBlockRelease {
    void operator()(std::byte* block) const noexcept;
};
using SharedBlock = std::unique_ptr<std::byte, SharedBlockRelease>;

// Where a request's inputs lie in the shared memory.
struct SharedInputs {
    std::string path;                 // /proc/<pid>/fd/<n>, for the backend
    std::uint64_t a = 0, b = 0;       // the offsets of their .npy files
    std::vector<SharedBlock> copies;  // of inputs that lay elsewhere: keep them until the answer
};

// Writes each input's .npy header before its data. An input that lies elsewhere (a small one,
// one made before share_tensors(), or when the memory was full) is copied into it, header and
// data. None when the memory is not set up or has no room.
std::optional<SharedInputs> place_inputs(const core::Tensor& a, const core::Tensor& b);

}  // namespace backends
