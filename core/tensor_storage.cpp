#include "core/tensor_storage.hpp"

#include <atomic>
#include <new>

namespace core {
namespace {

// Set once, before the first allocation that uses it; read on every allocation.
std::atomic<void* (*)(std::size_t)> g_allocate{nullptr};
std::atomic<bool (*)(void*)> g_release{nullptr};

}  // namespace

bool install_tensor_storage(TensorStorage storage) {
    bool (*none)(void*) = nullptr;
    // The release function goes first: a block the storage hands out must find its way back.
    if (!g_release.compare_exchange_strong(none, storage.release)) return false;
    g_allocate.store(storage.allocate);
    return true;
}

void* allocate_tensor_bytes(std::size_t bytes, std::size_t alignment) {
    if (const auto allocate = g_allocate.load(std::memory_order_acquire))
        if (void* block = allocate(bytes)) return block;
    return ::operator new (bytes, std::align_val_t{alignment});
}

void release_tensor_bytes(void* block, std::size_t alignment) noexcept {
    if (const auto release = g_release.load(std::memory_order_acquire))
        if (release(block)) return;
    ::operator delete (block, std::align_val_t{alignment});
}

}  // namespace core
