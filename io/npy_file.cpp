#include "io/npy_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace io {
namespace {

using core::ElementType;

constexpr std::array<char, 6> kMagic{'\x93', 'N', 'U', 'M', 'P', 'Y'};
// Any header we accept (rank <= kMaxRank) is far below this; the cap keeps a corrupt length
// field from making us allocate gigabytes before noticing.
constexpr std::uint64_t kMaxHeaderSize = std::uint64_t{1} << 20;
// Messages quote at most this much of a header, which may be binary garbage.
constexpr std::size_t kQuotedHeaderChars = 200;

[[noreturn]] void bad_npy(const std::string& path, const std::string& why) {
    throw core::Error(core::ErrorKind::input, "npy file '" + path + "': " + why);
}

// ---- descr <-> element type ----

struct NpyType {
    char code;
    std::size_t size;
    ElementType type;
};
constexpr NpyType kNpyTypes[] = {
    {'b', 1, ElementType::boolean}, {'i', 1, ElementType::i8},  {'i', 2, ElementType::i16},
    {'i', 4, ElementType::i32},     {'i', 8, ElementType::i64}, {'u', 1, ElementType::u8},
    {'u', 2, ElementType::u16},     {'u', 4, ElementType::u32}, {'u', 8, ElementType::u64},
    {'f', 2, ElementType::f16},     {'f', 4, ElementType::f32}, {'f', 8, ElementType::f64},
};

struct Descr {
    ElementType type;
    bool big_endian;
};

std::optional<Descr> parse_descr(std::string_view text) {
    if (text.size() < 3) return std::nullopt;
    const char order = text[0];
    if (order != '<' && order != '>' && order != '|') return std::nullopt;
    std::size_t size = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data() + 2, end, size);
    if (ec != std::errc() || p != end) return std::nullopt;
    for (const NpyType& n : kNpyTypes)
        if (n.code == text[1] && n.size == size) return Descr{n.type, order == '>'};
    return std::nullopt;
}

// ---- header dict ----

std::string quote_header(std::string_view text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n'))
        text.remove_suffix(1);
    std::string out;
    for (const char c : text.substr(0, kQuotedHeaderChars)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 0xf];
        }
    }
    return text.size() > kQuotedHeaderChars ? out + "..." : out;
}

// Reads the Python dict literal numpy writes, e.g. {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }, in any key order, with either quote style and Python 2 'L' suffixes.
// Only the three keys numpy defines are allowed, each exactly once (numpy checks the same).
class HeaderParser {
  public:
    HeaderParser(const std::string& path, std::string_view text) : path_(path), text_(text) {}
    NpyHeader parse();

  private:
    enum Key : unsigned { kDescr = 1, kFortranOrder = 2, kShape = 4 };

    [[noreturn]] void fail(const std::string& why) const;
    void skip_space();
    bool accept(char c);
    void expect(char c);
    std::string_view string_literal();
    bool boolean_literal();
    std::int64_t dimension();
    core::Shape shape_tuple();
    void descr_value(NpyHeader& header);
    void entry(NpyHeader& header, unsigned& seen);

    const std::string& path_;
    std::string_view text_;
    std::size_t pos_ = 0;
};

void HeaderParser::fail(const std::string& why) const {
    bad_npy(path_, "bad header at offset " + std::to_string(pos_) + ": " + why +
                       "; header: " + quote_header(text_));
}

void HeaderParser::skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
        ++pos_;
}

bool HeaderParser::accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
}

void HeaderParser::expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
}

std::string_view HeaderParser::string_literal() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
        fail("expected a quoted string");
    const char quote = text_[pos_];
    const std::size_t close = text_.find(quote, pos_ + 1);
    if (close == std::string_view::npos) fail("unterminated string");
    const std::string_view body = text_.substr(pos_ + 1, close - pos_ - 1);
    // numpy's keys and descrs never need escapes; refusing them keeps the parser trivial.
    if (body.find('\\') != std::string_view::npos) fail("escape sequences are not supported");
    pos_ = close + 1;
    return body;
}

bool HeaderParser::boolean_literal() {
    skip_space();
    for (const bool value : {true, false}) {
        const std::string_view word = value ? "True" : "False";
        if (text_.substr(pos_, word.size()) == word) return pos_ += word.size(), value;
    }
    fail("expected True or False");
}

std::int64_t HeaderParser::dimension() {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '-') fail("negative dimension");
    std::int64_t value = 0;
    const char* begin = text_.data() + pos_;
    const auto [p, ec] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (p == begin) fail("expected a dimension");
    if (ec != std::errc()) fail("dimension '" + std::string(begin, p) + "' overflows 64 bits");
    pos_ += static_cast<std::size_t>(p - begin);
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2
    return value;
}

core::Shape HeaderParser::shape_tuple() {
    expect('(');
    core::Shape shape;
    if (accept(')')) return shape;
    while (true) {
        shape.push_back(dimension());
        // Keeps a header full of dimensions from growing the vector without bound.
        if (shape.size() > core::kMaxRank)
            fail("shape has more than " + std::to_string(core::kMaxRank) + " dimensions");
        if (accept(')')) break;
        expect(',');
        if (accept(')')) return shape;
    }
    // In Python "(3)" is the integer 3, not a tuple; numpy rejects it too.
    if (shape.size() == 1) fail("'shape' is not a tuple (a 1-d shape is written (n,))");
    return shape;
}

void HeaderParser::descr_value(NpyHeader& header) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '[')
        fail("unsupported descr: structured dtypes are not supported");
    header.descr = std::string(string_literal());
    const auto descr = parse_descr(header.descr);
    if (!descr) bad_npy(path_, "unsupported descr '" + header.descr + "'");
    header.type = descr->type;
    header.big_endian = descr->big_endian;
}

void HeaderParser::entry(NpyHeader& header, unsigned& seen) {
    const std::string key(string_literal());
    expect(':');
    Key bit;
    if (key == "descr") {
        bit = kDescr;
        descr_value(header);
    } else if (key == "fortran_order") {
        bit = kFortranOrder;
        header.fortran_order = boolean_literal();
    } else if (key == "shape") {
        bit = kShape;
        header.shape = shape_tuple();
    } else {
        fail("unknown key '" + key + "'");
    }
    if (seen & bit) fail("duplicate key '" + key + "'");
    seen |= bit;
}

NpyHeader HeaderParser::parse() {
    NpyHeader header;
    unsigned seen = 0;
    expect('{');
    while (!accept('}')) {
        entry(header, seen);
        if (!accept(',')) {
            expect('}');
            break;
        }
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the dict");
    if (!(seen & kDescr)) fail("missing key 'descr'");
    if (!(seen & kFortranOrder)) fail("missing key 'fortran_order'");
    if (!(seen & kShape)) fail("missing key 'shape'");
    return header;
}

// ---- reading ----

// A regular file opened for reading, with its size taken once so that every length field can be
// checked against what is really there before anything is allocated.
class NpyInput {
  public:
    NpyInput(const std::string& path, const NpyReadLimits& limits);
    ~NpyInput() { ::close(fd_); }
    NpyInput(const NpyInput&) = delete;
    NpyInput& operator=(const NpyInput&) = delete;

    const std::string& path() const { return path_; }
    std::uint64_t remaining() const { return size_ - consumed_; }
    // Reads exactly out.size() bytes; `what` names the part for the message if the file ends.
    void read_exact(std::span<std::byte> out, const std::string& what);
    [[noreturn]] void fail(const std::string& why) const { bad_npy(path_, why); }

  private:
    const std::string& path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::uint64_t consumed_ = 0;
};

NpyInput::NpyInput(const std::string& path, const NpyReadLimits& limits) : path_(path) {
    // O_NONBLOCK: opening a FIFO must not hang before we get to reject it; regular files ignore it.
    const int no_follow = limits.follow_symlinks ? 0 : O_NOFOLLOW;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | no_follow);
    if (fd_ < 0) {
        const int err = errno;
        if (err == ELOOP && no_follow) fail("is a symbolic link");
        fail(err == ENOENT ? "file not found"
                           : "cannot open: " + std::generic_category().message(err));
    }
    struct stat st {};
    const bool stat_ok = ::fstat(fd_, &st) == 0;
    const int err = errno;
    const bool regular = stat_ok && S_ISREG(st.st_mode);
    if (regular) size_ = static_cast<std::uint64_t>(st.st_size);
    const bool too_large = regular && size_ > limits.max_file_bytes;
    // The destructor does not run when the constructor throws.
    if (!regular || too_large) ::close(fd_);
    if (!stat_ok) fail("cannot stat: " + std::generic_category().message(err));
    if (!regular) fail("not a regular file");
    if (too_large)
        fail("file is " + std::to_string(size_) + " bytes, more than the " +
             std::to_string(limits.max_file_bytes) + " bytes allowed");
}

void NpyInput::read_exact(std::span<std::byte> out, const std::string& what) {
    while (!out.empty()) {
        const ssize_t n = ::read(fd_, out.data(), out.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("read error in " + what + ": " + std::generic_category().message(errno));
        if (n == 0) fail("file ends inside " + what);
        out = out.subspan(static_cast<std::size_t>(n));
        consumed_ += static_cast<std::uint64_t>(n);
    }
}

std::uint64_t little_endian_value(std::span<const std::byte> bytes) {
    std::uint64_t value = 0;
    for (std::size_t i = bytes.size(); i-- > 0;)
        value = value << 8 | static_cast<std::uint64_t>(bytes[i]);
    return value;
}

// Checks the magic and the version in the first 8 bytes of a file (fewer: the file is shorter)
// and returns the size of the preamble: 10 bytes for version 1.0, 12 for 2.0 and 3.0, whose
// header length field has 4 bytes instead of 2.
std::size_t preamble_size(std::span<const std::byte> start, const std::string& path) {
    if (start.size() < kMagic.size() ||
        !std::equal(kMagic.begin(), kMagic.end(), start.begin(),
                    [](char c, std::byte b) { return static_cast<std::byte>(c) == b; }))
        bad_npy(path, "not an npy file (it does not start with the \\x93NUMPY magic)");
    if (start.size() < 8) bad_npy(path, "file ends inside the npy preamble");
    const auto major = static_cast<unsigned>(start[6]);
    const auto minor = static_cast<unsigned>(start[7]);
    if (major < 1 || major > 3 || minor != 0)
        bad_npy(path, "unsupported npy format version " + std::to_string(major) + "." +
                          std::to_string(minor));
    return major == 1 ? 10 : 12;
}

// The header length of a whole preamble, checked against the `rest` bytes after it.
std::uint64_t header_length(std::span<const std::byte> preamble, std::uint64_t rest,
                            const std::string& path) {
    const std::uint64_t length = little_endian_value(preamble.subspan(8));
    if (length > rest)
        bad_npy(path, "header length " + std::to_string(length) + " runs past the end of the file");
    if (length > kMaxHeaderSize)
        bad_npy(path, "header length " + std::to_string(length) + " is implausibly large");
    return length;
}

NpyHeader read_header(NpyInput& in) {
    std::array<std::byte, 12> preamble{};
    const auto lead = static_cast<std::size_t>(std::min<std::uint64_t>(in.remaining(), 8));
    in.read_exact(std::span(preamble).first(lead), "the npy preamble");
    const std::size_t size = preamble_size(std::span(preamble).first(lead), in.path());
    in.read_exact(std::span(preamble).subspan(8, size - 8), "the npy preamble");
    const std::uint64_t length =
        header_length(std::span(preamble).first(size), in.remaining(), in.path());
    std::string text(static_cast<std::size_t>(length), '\0');
    in.read_exact(std::as_writable_bytes(std::span(text)), "the header");
    NpyHeader header = HeaderParser(in.path(), text).parse();
    header.data_offset = size + length;
    return header;
}

void swap_byte_order(std::span<std::byte> bytes, std::size_t element_size) {
    for (std::size_t i = 0; i + element_size <= bytes.size(); i += element_size)
        std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                     bytes.begin() + static_cast<std::ptrdiff_t>(i + element_size));
}

// A bool holding any byte but 0 or 1 is undefined behaviour, and numpy would read such a byte
// as True; we refuse rather than change the data.
void check_booleans(const std::string& path, std::span<const std::byte> bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i)
        if (bytes[i] > std::byte{1})
            bad_npy(path, "boolean element " + std::to_string(i) + " has byte value " +
                              std::to_string(static_cast<unsigned>(bytes[i])) +
                              " (expected 0 or 1)");
}

// Fortran order stores the first axis fastest. Walks the row-major result with an odometer over
// the multi-index and tracks where each element sits in the column-major source.
core::Bytes row_major_from_fortran(std::span<const std::byte> source, const core::Shape& shape,
                                   std::size_t element_size) {
    const std::size_t rank = shape.size();
    const std::size_t count = source.size() / element_size;
    if (rank < 2 || count == 0) return {source.begin(), source.end()};
    core::Bytes out(source.size());  // every byte is written below
    std::vector<std::size_t> stride(rank, 1), index(rank, 0);
    for (std::size_t k = 1; k < rank; ++k)
        stride[k] = stride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
    std::size_t from = 0;
    for (std::size_t i = 0; i < count; ++i) {
        std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(from * element_size), element_size,
                    out.begin() + static_cast<std::ptrdiff_t>(i * element_size));
        for (std::size_t k = rank; k-- > 0;) {  // increment the last axis, carrying leftwards
            from += stride[k];
            if (++index[k] < static_cast<std::size_t>(shape[k])) break;
            from -= index[k] * stride[k];
            index[k] = 0;
        }
    }
    return out;
}

core::Tensor read_data(NpyInput& in, const NpyHeader& header, ElementType type) {
    check_npy_data_size(header, type, in.remaining(), in.path());
    const std::size_t item = core::byte_size(type);
    core::Tensor t = core::Tensor::uninitialized(type, header.shape);  // read_exact fills it
    in.read_exact(t.bytes, "the data");
    if (header.big_endian != (std::endian::native == std::endian::big))
        swap_byte_order(t.bytes, item);
    if (type == ElementType::boolean) check_booleans(in.path(), t.bytes);
    if (header.fortran_order) t.bytes = row_major_from_fortran(t.bytes, t.shape, item);
    return t;
}

// ---- writing ----

std::string python_tuple(const core::Shape& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + (shape.size() == 1 ? ",)" : ")");
}

void check_consistent(const core::Tensor& t) {
    const auto expected = static_cast<std::uint64_t>(core::element_count(t.shape)) *
                          static_cast<std::uint64_t>(core::byte_size(t.type));
    if (t.bytes.size() != expected)
        throw std::logic_error("write_npy: tensor of shape " + core::to_string(t.shape) +
                               " holds " + std::to_string(t.bytes.size()) + " bytes, expected " +
                               std::to_string(expected));
}

// The descr a type is stored as: "<f4", "|u1"; bf16 travels as raw "<u2" bits.
std::string npy_descr(ElementType t) {
    // bf16 has no numpy dtype: its raw bits travel as uint16.
    const ElementType stored = t == ElementType::bf16 ? ElementType::u16 : t;
    for (const NpyType& n : kNpyTypes)
        if (n.type == stored)
            return std::string(n.size == 1 ? "|" : "<") + n.code + std::to_string(n.size);
    throw std::logic_error("no npy descr for " + std::string(core::name(t)));
}

}  // namespace

std::string npy_preamble(ElementType type, const core::Shape& shape) {
    const std::string dict = "{'descr': '" + npy_descr(type) +
                             "', 'fortran_order': False, 'shape': " + python_tuple(shape) + ", }";
    const auto padded_length = [&](std::size_t prefix) {
        const std::size_t unpadded = prefix + dict.size() + 1;
        return (unpadded + 63) / 64 * 64 - prefix;
    };
    const bool version1 = padded_length(10) <= 0xffff;
    const std::size_t length = padded_length(version1 ? 10 : 12);
    std::string out(kMagic.begin(), kMagic.end());
    out += static_cast<char>(version1 ? 1 : 2);
    out += '\0';
    for (std::size_t i = 0; i < (version1 ? 2u : 4u); ++i)
        out += static_cast<char>((length >> (8 * i)) & 0xff);
    out += dict;
    out.append(length - dict.size() - 1, ' ');
    out += '\n';
    return out;
}

NpyHeader parse_npy_header(std::span<const std::byte> file, const std::string& path) {
    const std::size_t size = preamble_size(file.first(std::min<std::size_t>(file.size(), 8)), path);
    if (file.size() < size) bad_npy(path, "file ends inside the npy preamble");
    const std::uint64_t length = header_length(file.first(size), file.size() - size, path);
    const std::string_view text(reinterpret_cast<const char*>(file.data() + size),
                                static_cast<std::size_t>(length));
    NpyHeader header = HeaderParser(path, text).parse();
    header.data_offset = size + length;
    return header;
}

ElementType npy_element_type(const NpyHeader& header, std::optional<ElementType> dtype,
                             const std::string& path) {
    const ElementType stored = header.type;
    if (!dtype || *dtype == stored) return stored;
    if (*dtype == ElementType::bf16 && stored == ElementType::u16) return ElementType::bf16;
    bad_npy(path, "holds " + std::string(core::name(stored)) + " data (descr '" + header.descr +
                      "'), but " + std::string(core::name(*dtype)) + " was requested");
}

namespace {

// The data bytes the header's shape needs, when `available` holds at least that many. Throws.
std::uint64_t npy_data_bytes(const NpyHeader& header, ElementType type, std::uint64_t available,
                             const std::string& path, std::string& layout) {
    std::int64_t count = 0;
    try {
        count = core::element_count(header.shape);
    } catch (const core::Error& e) {
        bad_npy(path, std::string("invalid shape: ") + e.what());
    }
    const std::uint64_t item = core::byte_size(type);
    layout = "shape " + core::to_string(header.shape) + " of '" + header.descr + "' needs " +
             std::to_string(count) + " elements of " + std::to_string(item) + " bytes";
    // By division: count * item may not fit in 64 bits (a header may claim 2^62 elements of 8
    // bytes).
    if (static_cast<std::uint64_t>(count) > available / item)
        bad_npy(path, "data is shorter than the header says: " + layout + ", but only " +
                          std::to_string(available) + " bytes follow the header");
    return static_cast<std::uint64_t>(count) * item;
}

}  // namespace

void check_npy_data_size(const NpyHeader& header, ElementType type, std::uint64_t available,
                         const std::string& path) {
    std::string layout;
    const std::uint64_t needed = npy_data_bytes(header, type, available, path, layout);
    if (available > needed)
        bad_npy(path, "trailing garbage: " + layout + ", and " +
                          std::to_string(available - needed) + " more bytes follow them");
}

core::TensorView view_npy(std::span<const std::byte> region, std::optional<ElementType> dtype,
                          const std::string& path) {
    const NpyHeader header = parse_npy_header(region, path);
    const ElementType type = npy_element_type(header, dtype, path);
    if (header.big_endian != (std::endian::native == std::endian::big) || header.fortran_order)
        bad_npy(path, "a .npy in shared memory must be little-endian and in C order ('" +
                          header.descr + "', fortran_order " +
                          (header.fortran_order ? "True" : "False") + ")");
    const std::size_t item = core::byte_size(type);
    if (header.data_offset % item != 0)
        bad_npy(path, "the data starts at byte " + std::to_string(header.data_offset) +
                          ", not aligned to its " + std::to_string(item) + "-byte elements");
    std::string layout;
    const std::uint64_t needed =
        npy_data_bytes(header, type, region.size() - header.data_offset, path, layout);
    const auto data = region.subspan(header.data_offset, needed);
    if (type == ElementType::boolean) check_booleans(path, data);
    return {type, header.shape, data};
}

NpyLayout read_npy_layout(const std::string& path, std::optional<core::ElementType> dtype,
                          const NpyReadLimits& limits) {
    NpyInput in(path, limits);
    NpyLayout layout{read_header(in), ElementType::f32, 0};
    layout.type = npy_element_type(layout.header, dtype, path);
    check_npy_data_size(layout.header, layout.type, in.remaining(), path);
    layout.file_bytes = layout.header.data_offset + in.remaining();
    return layout;
}

core::Tensor read_npy(const std::string& path, std::optional<core::ElementType> dtype,
                      const NpyReadLimits& limits) {
    NpyInput in(path, limits);
    const NpyHeader header = read_header(in);
    const ElementType type = npy_element_type(header, dtype, path);
    return read_data(in, header, type);
}

void write_npy(const std::string& path, const core::Tensor& t, NpyWrite how) {
    check_consistent(t);
    const std::string preamble = npy_preamble(t.type, t.shape);
    core::Bytes swapped;
    std::span<const std::byte> data = t.bytes;
    if constexpr (std::endian::native == std::endian::big) {
        swapped = t.bytes;
        swap_byte_order(swapped, core::byte_size(t.type));
        data = swapped;
    }
    const std::array<std::span<const std::byte>, 2> pieces{std::as_bytes(std::span(preamble)),
                                                           data};
    if (how == NpyWrite::in_place)
        write_file_in_place(path, pieces);
    else
        write_file_atomically(path, pieces);
}

}  // namespace io
