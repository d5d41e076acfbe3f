#include "backends/host/npy_mapping.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <system_error>

#include "core/error.hpp"

namespace backends::host {
namespace {

using core::ElementType;

constexpr std::string_view kMagic{"\x93NUMPY", 6};

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

// ---- reading a header ----

struct NpyHeader {
    std::string descr;
    bool fortran_order = false;
    core::Shape shape;
};

std::size_t skip_space(std::string_view text, std::size_t pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n'))
        ++pos;
    return pos;
}

// Where the value of `key` starts in numpy's dict literal, with either quote style.
std::size_t value_position(std::string_view dict, std::string_view key) {
    for (const char quote : {'\'', '"'}) {
        const std::string quoted = quote + std::string(key) + quote;
        const std::size_t at = dict.find(quoted);
        if (at == std::string_view::npos) continue;
        const std::size_t colon = skip_space(dict, at + quoted.size());
        if (colon < dict.size() && dict[colon] == ':') return skip_space(dict, colon + 1);
    }
    throw HostError("the header has no '" + std::string(key) + "'");
}

std::string parse_descr(std::string_view dict) {
    const std::size_t pos = value_position(dict, "descr");
    const char quote = pos < dict.size() ? dict[pos] : '\0';
    const std::size_t close = dict.find(quote, pos + 1);
    if ((quote != '\'' && quote != '"') || close == std::string_view::npos)
        throw HostError("the header's 'descr' is not a string (structured dtypes are unsupported)");
    return std::string(dict.substr(pos + 1, close - pos - 1));
}

bool parse_fortran_order(std::string_view dict) {
    const std::string_view value = dict.substr(value_position(dict, "fortran_order"));
    if (value.starts_with("True")) return true;
    if (value.starts_with("False")) return false;
    throw HostError("the header's 'fortran_order' is neither True nor False");
}

core::Shape parse_shape(std::string_view dict) {
    std::size_t pos = value_position(dict, "shape");
    if (pos >= dict.size() || dict[pos] != '(') throw HostError("the header's 'shape' is no tuple");
    core::Shape shape;
    for (pos = skip_space(dict, pos + 1); pos < dict.size() && dict[pos] != ')';) {
        std::int64_t dim = 0;
        const auto [end, ec] = std::from_chars(dict.data() + pos, dict.data() + dict.size(), dim);
        if (ec != std::errc() || dim < 0 || shape.size() == core::kMaxRank)
            throw HostError("the header's 'shape' holds a bad dimension");
        shape.push_back(dim);
        pos = skip_space(dict, static_cast<std::size_t>(end - dict.data()));
        if (pos < dict.size() && dict[pos] == ',') pos = skip_space(dict, pos + 1);
    }
    if (pos >= dict.size()) throw HostError("the header's 'shape' is not closed");
    return shape;
}

std::uint64_t little_endian(const std::byte* p, std::size_t n) {
    std::uint64_t value = 0;
    for (std::size_t i = n; i-- > 0;)
        value = value << 8 | static_cast<std::uint64_t>(p[i]);
    return value;
}

// Returns the header dict and sets `data_offset` to where the elements start.
std::string_view read_preamble(const FileMapping& file, std::size_t& data_offset) {
    const auto* p = file.data();
    if (file.length() < 10 || std::memcmp(p, kMagic.data(), kMagic.size()) != 0)
        throw HostError("not an .npy file");
    const auto major = static_cast<unsigned>(p[6]);
    if (major < 1 || major > 3 || p[7] != std::byte{0})
        throw HostError("unsupported .npy format version");
    const std::size_t field = major == 1 ? 2 : 4;
    if (file.length() < 8 + field) throw HostError("the file ends inside the preamble");
    const std::uint64_t length = little_endian(p + 8, field);
    if (length > file.length() - 8 - field) throw HostError("the file ends inside the header");
    data_offset = 8 + field + static_cast<std::size_t>(length);
    return {reinterpret_cast<const char*>(p + 8 + field), static_cast<std::size_t>(length)};
}

bool same_descr(const std::string& found, const std::string& expected) {
    if (found == expected) return true;
    // One-byte types have no byte order: numpy writes '|', others may write '<' or '='.
    return expected[0] == '|' && found.size() == expected.size() &&
           std::string_view("<|=").find(found[0]) != std::string_view::npos &&
           found.substr(1) == expected.substr(1);
}

// Fortran order lays out the same bytes as C order when at most one dimension exceeds 1.
bool c_order_layout(const NpyHeader& h) {
    return !h.fortran_order ||
           std::count_if(h.shape.begin(), h.shape.end(), [](std::int64_t d) { return d > 1; }) <= 1;
}

void check_header(const NpyHeader& h, const TensorFile& file) {
    const std::string expected = npy_descr(file.dtype);
    if (!same_descr(h.descr, expected))
        throw HostError("holds '" + h.descr + "' data, but the request says " +
                        std::string(core::name(file.dtype)) + " ('" + expected + "')");
    if (h.shape != file.shape)
        throw HostError("has shape " + core::to_string(h.shape) + ", but the request says " +
                        core::to_string(file.shape));
    if (!c_order_layout(h)) throw HostError("is in Fortran order (the protocol sends C order)");
}

std::size_t data_bytes(const core::Shape& shape, ElementType t, std::size_t available) {
    std::int64_t count = 0;
    try {
        count = core::element_count(shape);
    } catch (const core::Error& e) {
        throw HostError(std::string("has an invalid shape: ") + e.what());
    }
    const std::size_t item = core::byte_size(t);
    if (static_cast<std::uint64_t>(count) > available / item ||
        static_cast<std::size_t>(count) * item != available)
        throw HostError("holds " + std::to_string(available) + " data bytes, but shape " +
                        core::to_string(shape) + " needs " + std::to_string(count) +
                        " elements of " + std::to_string(item) + " bytes");
    return available;
}

// ---- writing a header ----

std::string python_tuple(const core::Shape& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

// Format 1.0 as numpy writes it: the preamble padded with spaces and a final '\n' to a multiple
// of 64 bytes, which also aligns the data for any element type.
std::string npy_preamble(ElementType t, const core::Shape& shape) {
    const std::string dict = "{'descr': '" + npy_descr(t) +
                             "', 'fortran_order': False, 'shape': " + python_tuple(shape) + ", }";
    const std::size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
    const std::size_t length = total - 10;  // < 0x10000 for any rank <= kMaxRank
    std::string out(kMagic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(length & 0xff);
    out += static_cast<char>(length >> 8);
    out += dict;
    out.append(length - dict.size() - 1, ' ');
    return out + '\n';
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

std::string npy_descr(ElementType t) {
    const ElementType stored = t == ElementType::bf16 ? ElementType::u16 : t;
    const char code = stored == ElementType::boolean                          ? 'b'
                      : core::is_floating(stored)                             ? 'f'
                      : core::info(stored).kind == core::Kind::signed_integer ? 'i'
                                                                              : 'u';
    const std::size_t size = core::byte_size(stored);
    return std::string(size == 1 ? "|" : "<") + code + std::to_string(size);
}

// ---- FileMapping ----

FileMapping::FileMapping(int fd, std::size_t length, bool writable, const std::string& path) {
    const int protection = writable ? PROT_READ | PROT_WRITE : PROT_READ;
    // MAP_POPULATE maps every page in one call instead of one fault per 4 KiB page.
    void* base = ::mmap(nullptr, length, protection, MAP_SHARED | MAP_POPULATE, fd, 0);
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

MappedInput::MappedInput(const TensorFile& file, const char* which) {
    const auto fail = [&](const std::string& why) {
        throw HostError(std::string("input ") + which + " '" + file.path + "' " + why);
    };
    // O_NONBLOCK: a FIFO must not hang the host before it is rejected.
    const FileDescriptor fd(::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) fail("cannot be opened: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail("cannot be examined: " + errno_text(errno));
    if (!S_ISREG(st.st_mode)) fail("is not a regular file");
    if (st.st_size == 0) fail("is empty");
    try {
        mapping_ = FileMapping(fd.get(), static_cast<std::size_t>(st.st_size), false, file.path);
        std::size_t offset = 0;
        const std::string_view dict = read_preamble(mapping_, offset);
        const NpyHeader header{parse_descr(dict), parse_fortran_order(dict), parse_shape(dict)};
        check_header(header, file);
        byte_size_ = data_bytes(header.shape, file.dtype, mapping_.length() - offset);
        data_ = mapping_.data() + offset;
    } catch (const HostError& e) {
        fail(e.what());
    }
    const std::size_t item = core::byte_size(file.dtype);
    if (reinterpret_cast<std::uintptr_t>(data_) % item != 0) {
        aligned_copy_.resize((byte_size_ + 7) / 8);
        std::memcpy(aligned_copy_.data(), data_, byte_size_);
        data_ = aligned_copy_.data();
    }
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
    std::byte* data = output_buffer(std::max<std::size_t>(count * item, 1));
    data_ = data;
    preamble_ = std::move(preamble);
    data_bytes_ = count * item;
    dtype_ = type;
    allocated_ = true;
    return data;
}

void OutputFile::finish() {
    if (!allocated_) throw HostError("no output was allocated");
    const FileDescriptor fd(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) throw HostError("cannot create '" + path_ + "': " + errno_text(errno));
    write_all(fd.get(), reinterpret_cast<const std::byte*>(preamble_.data()), preamble_.size(),
              path_);
    write_all(fd.get(), data_, data_bytes_, path_);
    allocated_ = false;
}

}  // namespace backends::host
