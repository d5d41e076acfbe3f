// The validator's side of the shared output region (PROTOCOL.md section 9, item 17): memory a
// backend writes its output's .npy into, which the validator then compares in place. No file is
// written, read or copied for the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "io/npy_mapping.hpp"

namespace backends {

// A memfd sealed against shrinking and growing, mapped shared. The seals matter: reading a page
// past the end of a shared file is SIGBUS, and the backend, which may open the memfd, cannot
// truncate it under the validator's mapping. The backend opens it at path(), a /proc path of
// this process's descriptor.
class OutputRegion {
  public:
    OutputRegion() = default;
    ~OutputRegion();
    OutputRegion(const OutputRegion&) = delete;
    OutputRegion& operator=(const OutputRegion&) = delete;

    // Ensures at least `bytes` bytes, replacing the region by a larger one when needed. False
    // when memory cannot be had (the call then uses the output file instead).
    bool reserve(std::uint64_t bytes);
    // Spoils the magic of whatever .npy the region holds, so that only an output written after
    // this may be read back.
    void invalidate();

    const std::string& path() const { return path_; }
    std::uint64_t bytes() const { return mapping_.length(); }
    std::span<const std::byte> data() const { return {mapping_.data(), mapping_.length()}; }

  private:
    void release();

    int fd_ = -1;
    std::string path_;
    io::FileMapping mapping_;
};

}  // namespace backends
