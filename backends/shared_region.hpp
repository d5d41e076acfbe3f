// The validator's side of the shared regions (PROTOCOL.md section 9, items 17 and 18): memory a
// backend writes its output's .npy into, which the validator then compares in place, and the
// memory the validator keeps its tensors in (backends/shared_tensors.hpp), which a backend reads
// its inputs from in place. No file is written, read or copied for them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "io/npy_mapping.hpp"

namespace backends {

// Who writes the region besides the validator's own mapping: the backend (the output, mapped
// whole at once), or nobody (the tensors: sealed against every write but the validator's,
// F_SEAL_FUTURE_WRITE, and sparse: a page takes memory once a tensor uses it).
enum class RegionWriter { backend, validator_only };

// A memfd sealed against shrinking and growing, mapped shared. The seals matter: reading a page
// past the end of a shared file is SIGBUS, and the backend, which may open the memfd, cannot
// truncate it under the validator's mapping. The backend opens it at path(), a /proc path of
// this process's descriptor.
class SharedRegion {
  public:
    explicit SharedRegion(RegionWriter writer) : writer_(writer) {}
    ~SharedRegion();
    SharedRegion(const SharedRegion&) = delete;
    SharedRegion& operator=(const SharedRegion&) = delete;

    // Ensures at least `bytes` bytes, replacing the region by a larger one when needed. False
    // when memory cannot be had (the call then uses files instead).
    bool reserve(std::uint64_t bytes);
    // Spoils the magic of whatever .npy the region holds, so that only an output written after
    // this may be read back.
    void invalidate();

    const std::string& path() const { return path_; }
    std::uint64_t bytes() const { return mapping_.length(); }
    std::span<const std::byte> data() const { return {mapping_.data(), mapping_.length()}; }
    std::span<std::byte> writable() { return {mapping_.data(), mapping_.length()}; }

  private:
    void release();

    RegionWriter writer_;
    int fd_ = -1;
    std::string path_;
    io::FileMapping mapping_;
};

}  // namespace backends
