#include "core/large_buffers.hpp"

#include <malloc.h>

namespace core {

void reuse_large_buffers() {
    constexpr int kOneGiB = 1 << 30;
    mallopt(M_MMAP_THRESHOLD, kOneGiB);
    mallopt(M_TRIM_THRESHOLD, kOneGiB);
    // One arena: another thread's arena keeps a large block in a heap of its own (at most
    // 64 MiB), unmapped once the block is freed, so a buffer the runner's std::async thread
    // allocates (a large case's expected output) would fault its pages in anew every case.
    mallopt(M_ARENA_MAX, 1);
}

}  // namespace core
