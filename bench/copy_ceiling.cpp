#include "bench/copy_ceiling.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

namespace bench {
namespace {

// Each thread gets one contiguous, cache-line aligned part of [0, bytes).
template <class F>
void split(std::size_t bytes, F&& f) {
#pragma omp parallel
    {
        const auto threads = static_cast<std::size_t>(omp_get_num_threads());
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        const std::size_t part = (bytes / threads + 63) / 64 * 64;
        const std::size_t lo = std::min(bytes, t * part), hi = std::min(bytes, lo + part);
        if (hi > lo) f(lo, hi - lo);
    }
}

}  // namespace

CopyCeiling::CopyCeiling(std::size_t bytes_moved)
    : half_(std::max<std::size_t>(64, bytes_moved / 2 / 64 * 64)),
      src_(new std::byte[half_]),
      dst_(new std::byte[half_]) {
    // First touch by the threads that copy later.
    split(half_, [&](std::size_t lo, std::size_t n) {
        std::memset(src_.get() + lo, 1, n);
        std::memset(dst_.get() + lo, 0, n);
    });
}

void CopyCeiling::run() {
    split(half_,
          [&](std::size_t lo, std::size_t n) { std::memcpy(dst_.get() + lo, src_.get() + lo, n); });
}

}  // namespace bench
