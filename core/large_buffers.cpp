#include "core/large_buffers.hpp"

#include <malloc.h>

namespace core {

void reuse_large_buffers() {
    constexpr int kOneGiB = 1 << 30;
    mallopt(M_MMAP_THRESHOLD, kOneGiB);
    mallopt(M_TRIM_THRESHOLD, kOneGiB);
}

}  // namespace core
