// The host's .npy files as memory mappings: inputs mapped read-only and checked against the
// request, the output created, sized and mapped for the plugin to write into. No tensor copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/element_type.hpp"
#include "core/tensor.hpp"

namespace io {

// Why a request cannot be served (a bad input file, an output that cannot be written): the
// answer is `error` with this message.
class HostError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A whole file mapped into memory (shared, so that writes reach the file); unmapped on
// destruction. Move-only.
class FileMapping {
  public:
    FileMapping() = default;
    // Maps `length` > 0 bytes of the open file `fd`, every page at once when `populate` (a sparse
    // file's holes would then take memory). Throws HostError naming `path`.
    FileMapping(int fd, std::size_t length, bool writable, const std::string& path,
                bool populate = true);
    ~FileMapping() { reset(); }
    FileMapping(FileMapping&& other) noexcept;
    FileMapping& operator=(FileMapping&& other) noexcept;

    std::byte* data() const { return base_; }
    std::size_t length() const { return length_; }
    explicit operator bool() const { return base_ != nullptr; }
    void reset();

  private:
    std::byte* base_ = nullptr;
    std::size_t length_ = 0;
};

// An input .npy file (format 1.0, 2.0 or 3.0, little-endian, C order) mapped read-only.
class MappedInput {
  public:
    // Throws HostError naming `which` ("a", "b") when the file is missing or malformed, or its
    // header disagrees with the request's dtype or shape.
    MappedInput(const std::string& path, core::ElementType dtype, const core::Shape& shape,
                const char* which);
    // The .npy at `offset` of an input region (backends/PROTOCOL.md section 9, item 18), viewed
    // in place: little-endian, C order, aligned, inside the region. Throws HostError likewise.
    MappedInput(std::span<const std::byte> region, std::uint64_t offset, const std::string& path,
                core::ElementType dtype, const core::Shape& shape, const char* which);

    // byte_size() bytes aligned to the element size (copied only if the file's data offset
    // is not: numpy pads headers to 64 bytes, so in practice never).
    const void* data() const { return data_; }
    std::size_t byte_size() const { return byte_size_; }

  private:
    FileMapping mapping_;
    const void* data_ = nullptr;
    std::size_t byte_size_ = 0;
    std::vector<std::uint64_t> aligned_copy_;
};

// The shared memory requests offer for the output (backends/PROTOCOL.md section 9, item 17),
// mapped read-write and kept mapped while they name the same path and size.
class RegionMapping {
  public:
    // The region at `path` of `bytes` bytes. Throws HostError when it cannot be opened or
    // mapped, or is smaller than `bytes`.
    std::span<std::byte> map(const std::string& path, std::uint64_t bytes);

  private:
    std::string path_;
    std::uint64_t bytes_ = 0;
    FileMapping mapping_;
};

// The input region requests name (backends/PROTOCOL.md section 9, item 18): the whole memfd
// mapped read-only, and kept mapped while requests name the same path and it keeps its size.
class InputRegionMapping {
  public:
    // Throws HostError when `path` cannot be opened or mapped, or is not a regular file.
    std::span<const std::byte> map(const std::string& path);

  private:
    std::string path_;
    std::uint64_t bytes_ = 0;
    FileMapping mapping_;
};

// The output of one request, created by the plugin's allocate call: in the request's shared
// region when one is given and the whole .npy fits in it, else in the host's own buffer, written
// to the output file by finish().
class OutputFile {
  public:
    explicit OutputFile(std::string path, std::span<std::byte> region = {})
        : path_(std::move(path)), region_(region) {}

    // The eltwise_allocate_fn contract (eltwise_backend.h); ctx is the OutputFile. Never throws.
    // The buffer is the host's own, 64-byte aligned and reused from call to call.
    static void* allocate(void* ctx, const char* dtype, int rank, const std::int64_t* shape);

    bool allocated() const { return allocated_; }
    core::ElementType dtype() const { return dtype_; }
    // Why the last allocate returned NULL, or "".
    const std::string& failure() const { return failure_; }

    // Writes the .npy file: the header, then the buffer; nothing when the output went to the
    // region. Throws HostError (a full /dev/shm too).
    void finish();
    bool in_region() const { return in_region_; }
    // Forgets the output; nothing was written.
    void discard() { allocated_ = false; }

  private:
    void* create(const char* dtype, int rank, const std::int64_t* shape);

    std::string path_;
    std::span<std::byte> region_;
    bool in_region_ = false;
    std::string preamble_;
    std::byte* data_ = nullptr;  // the host's output buffer
    std::size_t data_bytes_ = 0;
    bool called_ = false;     // allocate ran during this call
    bool allocated_ = false;  // and succeeded
    core::ElementType dtype_ = core::ElementType::f32;
    std::string failure_;
};

}  // namespace io
