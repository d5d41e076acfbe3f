#include "io/npy_mapping.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <system_error>

#include "core/error.hpp"
#include "io/npy_file.hpp"

namespace io {
namespace {

using core::ElementType;

std::string errno_text(int err) {
    return std::generic_category().message(err);
}

// Closes a file descriptor on every path out of a function.
class FileDescriptor {
  public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }

  private:
    int fd_;
};

// Fortran order lays out the same bytes as C order when at most one dimension exceeds 1.
bool c_order_layout(const NpyHeader& h) {
    return !h.fortran_order ||
           std::count_if(h.shape.begin(), h.shape.end(), [](std::int64_t d) { return d > 1; }) <= 1;
}

// The host maps inputs read-only and hands them to the plugin as they are: the file must hold
// the request's type and shape, little-endian and in C order.
void check_header(const NpyHeader& h, ElementType dtype, const core::Shape& shape,
                  const std::string& path) {
    npy_element_type(h, dtype, path);
    if (h.big_endian && core::byte_size(dtype) > 1)
        throw HostError("is big-endian ('" + h.descr + "'; the protocol sends little-endian)");
    if (h.shape != shape)
        throw HostError("has shape " + core::to_string(h.shape) + ", but the request says " +
                        core::to_string(shape));
    if (!c_order_layout(h)) throw HostError("is in Fortran order (the protocol sends C order)");
}

ElementType type_named(const char* text) {
    if (text)
        if (auto t = core::element_type_named(text)) return *t;
    throw HostError(std::string("allocate: unknown element type '") + (text ? text : "(null)") +
                    "'");
}

core::Shape shape_from(int rank, const std::int64_t* dims) {
    if (rank < 0 || static_cast<std::size_t>(rank) > core::kMaxRank || (rank > 0 && !dims))
        throw HostError("allocate: invalid rank " + std::to_string(rank));
    core::Shape shape(dims, dims + rank);
    try {
        core::element_count(shape);
    } catch (const core::Error& e) {
        throw HostError(std::string("allocate: ") + e.what());
    }
    return shape;
}

}  // namespace

// ---- FileMapping ----

FileMapping::FileMapping(int fd, std::size_t length, bool writable, const std::string& path,
                         bool populate) {
    const int protection = writable ? PROT_READ | PROT_WRITE : PROT_READ;
    // MAP_POPULATE maps every page in one call instead of one fault per 4 KiB page.
    void* base =
        ::mmap(nullptr, length, protection, MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
    if (base == MAP_FAILED) throw HostError("cannot map '" + path + "': " + errno_text(errno));
    base_ = static_cast<std::byte*>(base);
    length_ = length;
}

FileMapping::FileMapping(FileMapping&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)), length_(std::exchange(other.length_, 0)) {}

FileMapping& FileMapping::operator=(FileMapping&& other) noexcept {
    if (this != &other) {
        reset();
        base_ = std::exchange(other.base_, nullptr);
        length_ = std::exchange(other.length_, 0);
    }
    return *this;
}

void FileMapping::reset() {
    if (base_) ::munmap(base_, length_);
    base_ = nullptr;
    length_ = 0;
}

// ---- MappedInput ----

MappedInput::MappedInput(const std::string& path, ElementType dtype, const core::Shape& shape,
                         const char* which) {
    const auto fail = [&](const std::string& why) {
        throw HostError(std::string("input ") + which + " '" + path + "' " + why);
    };
    // O_NONBLOCK: a FIFO must not hang the host before it is rejected.
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) fail("cannot be opened: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail("cannot be examined: " + errno_text(errno));
    if (!S_ISREG(st.st_mode)) fail("is not a regular file");
    if (st.st_size == 0) fail("is empty");
    try {
        mapping_ = FileMapping(fd.get(), static_cast<std::size_t>(st.st_size), false, path);
        const std::span<const std::byte> file(mapping_.data(), mapping_.length());
        const NpyHeader header = parse_npy_header(file, path);
        check_header(header, dtype, shape, path);
        check_npy_data_size(header, dtype, file.size() - header.data_offset, path);
        byte_size_ = file.size() - static_cast<std::size_t>(header.data_offset);
        data_ = mapping_.data() + header.data_offset;
    } catch (const HostError& e) {
        fail(e.what());
    } catch (const core::Error& e) {
        throw HostError(std::string("input ") + which + ": " + e.what());
    }
    const std::size_t item = core::byte_size(dtype);
    if (reinterpret_cast<std::uintptr_t>(data_) % item != 0) {
        aligned_copy_.resize((byte_size_ + 7) / 8);
        std::memcpy(aligned_copy_.data(), data_, byte_size_);
        data_ = aligned_copy_.data();
    }
}

MappedInput::MappedInput(std::span<const std::byte> region, std::uint64_t offset,
                         const std::string& path, ElementType dtype, const core::Shape& shape,
                         const char* which) {
    const std::string where = path + " at offset " + std::to_string(offset);
    const auto fail = [&](const std::string& why) {
        throw HostError(std::string("input ") + which + " '" + where + "' " + why);
    };
    if (offset >= region.size())
        fail("lies past the region's " + std::to_string(region.size()) + " bytes");
    try {
        const core::TensorView v = view_npy(region.subspan(offset), dtype, where);
        if (v.shape != shape)
            fail("has shape " + core::to_string(v.shape) + ", but the request says " +
                 core::to_string(shape));
        data_ = v.bytes.data();
        byte_size_ = v.bytes.size();
    } catch (const core::Error& e) {
        throw HostError(std::string("input ") + which + ": " + e.what());
    }
    // The plugin reads the elements where they lie: an offset that misaligns them is refused.
    if (reinterpret_cast<std::uintptr_t>(data_) % core::byte_size(dtype) != 0)
        fail("has its data at a byte not aligned to its " + std::to_string(core::byte_size(dtype)) +
             "-byte elements");
}

// ---- InputRegionMapping ----

std::span<const std::byte> InputRegionMapping::map(const std::string& path) {
    const auto fail = [&](const std::string& why) -> HostError {
        return HostError("input region '" + path + "' " + why);
    };
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) throw fail("cannot be opened: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw fail("cannot be examined: " + errno_text(errno));
    if (!S_ISREG(st.st_mode) || st.st_size <= 0) throw fail("is not a regular file with bytes");
    const auto bytes = static_cast<std::uint64_t>(st.st_size);
    if (!mapping_ || path != path_ || bytes != bytes_) {
        mapping_.reset();
        // Not populated: the validator's region is sparse (PROTOCOL.md section 9, item 18), and
        // the pages of a case's inputs stay mapped for the next cases that reuse them.
        mapping_ = FileMapping(fd.get(), static_cast<std::size_t>(bytes), false, path, false);
        path_ = path;
        bytes_ = bytes;
    }
    return {mapping_.data(), mapping_.length()};
}

// ---- RegionMapping ----

std::span<std::byte> RegionMapping::map(const std::string& path, std::uint64_t bytes) {
    if (mapping_ && path == path_ && bytes == bytes_) return {mapping_.data(), mapping_.length()};
    mapping_.reset();
    const auto fail = [&](const std::string& why) -> HostError {
        return HostError("out_region '" + path + "' " + why);
    };
    if (bytes == 0 || bytes > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max()))
        throw fail("has the unusable size " + std::to_string(bytes));
    const FileDescriptor fd(::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) throw fail("cannot be opened: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw fail("cannot be examined: " + errno_text(errno));
    // Touching a page past the end of a shared file is SIGBUS: the file must hold every byte.
    if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) < bytes)
        throw fail("is not a regular file of at least " + std::to_string(bytes) + " bytes");
    mapping_ = FileMapping(fd.get(), static_cast<std::size_t>(bytes), true, path);
    path_ = path;
    bytes_ = bytes;
    return {mapping_.data(), mapping_.length()};
}

// ---- OutputFile ----

void* OutputFile::allocate(void* ctx, const char* dtype, int rank, const std::int64_t* shape) {
    auto* self = static_cast<OutputFile*>(ctx);
    try {
        return self->create(dtype, rank, shape);
    } catch (const std::exception& e) {
        self->failure_ = e.what();
    } catch (...) {
        self->failure_ = "allocate: unexpected failure";
    }
    return nullptr;
}

namespace {

// One output buffer for the host's lifetime: written through write(2) at the end of a call, so
// that the plugin's stores go to memory the process already has, not to fresh tmpfs pages
// faulted in one by one through a shared mapping (measured: three times slower for 64 MiB).
std::byte* output_buffer(std::size_t bytes) {
    struct Free {
        void operator()(std::byte* p) const { std::free(p); }
    };
    static std::unique_ptr<std::byte, Free> buffer;
    static std::size_t capacity = 0;
    if (bytes > capacity) {
        constexpr std::size_t kAlign = 64;
        const std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
        buffer.reset(static_cast<std::byte*>(std::aligned_alloc(kAlign, rounded)));
        capacity = buffer ? rounded : 0;
        if (!buffer)
            throw HostError("allocate: out of memory for " + std::to_string(bytes) + " bytes");
    }
    return buffer.get();
}

void write_all(int fd, const std::byte* data, std::size_t size, const std::string& path) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw HostError("cannot write '" + path + "': " + errno_text(errno));
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

}  // namespace

void* OutputFile::create(const char* dtype, int rank, const std::int64_t* dims) {
    if (called_) throw HostError("allocate was called more than once in one call");
    called_ = true;
    const ElementType type = type_named(dtype);
    const core::Shape shape = shape_from(rank, dims);
    const std::size_t count = static_cast<std::size_t>(core::element_count(shape));
    const std::size_t item = core::byte_size(type);
    std::string preamble = npy_preamble(type, shape);
    constexpr auto kMaxFileSize = static_cast<std::size_t>(std::numeric_limits<off_t>::max());
    if (count > (kMaxFileSize - preamble.size()) / item)
        throw HostError("allocate: the output size overflows");
    // In the region: the preamble's length is a multiple of 64, so the data is aligned too.
    in_region_ =
        preamble.size() <= region_.size() && count <= (region_.size() - preamble.size()) / item;
    std::byte* data = nullptr;
    if (in_region_) {
        std::memcpy(region_.data(), preamble.data(), preamble.size());
        data = region_.data() + preamble.size();
    } else {
        data = output_buffer(std::max<std::size_t>(count * item, 1));
    }
    data_ = data;
    preamble_ = std::move(preamble);
    data_bytes_ = count * item;
    dtype_ = type;
    allocated_ = true;
    return data;
}

void OutputFile::finish() {
    if (!allocated_) throw HostError("no output was allocated");
    if (in_region_) {
        allocated_ = false;
        return;
    }
    const FileDescriptor fd(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) throw HostError("cannot create '" + path_ + "': " + errno_text(errno));
    write_all(fd.get(), reinterpret_cast<const std::byte*>(preamble_.data()), preamble_.size(),
              path_);
    write_all(fd.get(), data_, data_bytes_, path_);
    allocated_ = false;
}

}  // namespace io
