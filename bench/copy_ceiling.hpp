// The memory-bandwidth ceiling of a row: a STREAM-style parallel copy moving the same bytes.
#pragma once

#include <cstddef>
#include <memory>

namespace bench {

// Copies bytes/2 from one buffer into another, split evenly across the OpenMP threads (glibc
// memcpy per thread, which uses non-temporal stores at these sizes). A row moving
// |A| + |B| + |C| bytes gets a copy moving the same count: read |A|+|B|+|C| / 2, write as much.
class CopyCeiling {
  public:
    explicit CopyCeiling(std::size_t bytes_moved);
    void run();
    std::size_t bytes_moved() const { return 2 * half_; }

  private:
    std::size_t half_;
    std::unique_ptr<std::byte[]> src_, dst_;
};

}  // namespace bench
