#include "io/npy_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "io/tests/scratch_dir.hpp"

namespace io {
namespace {

using core::ElementType;
using testing::Bytes;
using testing::read_bytes;
using testing::ScratchDir;
using testing::write_bytes;

// Magic, version, little-endian header length (2 bytes for 1.0, 4 for 2.0/3.0), then the header
// text exactly as given, then the data.
Bytes npy_bytes(std::uint8_t major, const std::string& header, const Bytes& data) {
    Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
    const std::size_t n = header.size();
    out.push_back(static_cast<std::uint8_t>(n & 0xff));
    out.push_back(static_cast<std::uint8_t>((n >> 8) & 0xff));
    if (major >= 2) {
        out.push_back(static_cast<std::uint8_t>((n >> 16) & 0xff));
        out.push_back(static_cast<std::uint8_t>((n >> 24) & 0xff));
    }
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

// What numpy writes for np.array([1, -2], dtype='<i4'): the dict is padded with spaces so that
// magic (6) + version (2) + length (2) + header (118 = 0x76) make 128 bytes, the last a '\n'.
Bytes numpy_i32_pair() {
    const std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    std::string header = dict + std::string(118 - dict.size() - 1, ' ') + "\n";
    Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', 0x01, 0x00, 0x76, 0x00};
    out.insert(out.end(), header.begin(), header.end());
    const Bytes data = {0x01, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff};
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

template <class F>
void expect_npy_error(F f, const std::string& path, const std::string& what) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one saying '" << what << "'";
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

std::vector<std::uint16_t> bits16(const core::Tensor& t) {
    std::vector<std::uint16_t> out;
    for (std::size_t i = 0; i < t.bytes.size(); i += 2) {
        std::uint16_t v;
        std::memcpy(&v, t.bytes.data() + i, 2);
        out.push_back(v);
    }
    return out;
}

TEST(NpyRead, DecodesNumpysI32File) {
    ScratchDir dir;
    const std::string path = dir.file("pair.npy");
    write_bytes(path, numpy_i32_pair());
    const core::Tensor t = read_npy(path, std::nullopt);
    EXPECT_EQ(t.type, ElementType::i32);
    EXPECT_EQ(t.shape, (core::Shape{2}));
    const auto v = t.values<std::int32_t>();
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0], 1);
    EXPECT_EQ(v[1], -2);
}

TEST(NpyRead, DecodesF16File) {
    ScratchDir dir;
    const std::string path = dir.file("half.npy");
    // 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff, 2^-24 = 0x0001; little-endian bytes.
    write_bytes(path, npy_bytes(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }\n",
                                {0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x01, 0x00}));
    const core::Tensor t = read_npy(path, std::nullopt);
    EXPECT_EQ(t.type, ElementType::f16);
    EXPECT_EQ(t.shape, (core::Shape{2, 2}));
    EXPECT_EQ(bits16(t), (std::vector<std::uint16_t>{0x3c00, 0xc000, 0x7bff, 0x0001}));
    const auto v = t.values<core::Half>();
    EXPECT_EQ(core::to_float(v[0]), 1.0f);
    EXPECT_EQ(core::to_float(v[1]), -2.0f);
    EXPECT_EQ(core::to_float(v[2]), 65504.0f);
    EXPECT_EQ(core::to_float(v[3]), 0x1p-24f);
}

TEST(NpyRead, AcceptsVersions2And3) {
    ScratchDir dir;
    for (std::uint8_t major : {2, 3}) {
        SCOPED_TRACE(major);
        const std::string path = dir.file("v.npy");
        write_bytes(path,
                    npy_bytes(major, "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }\n",
                              {0x01, 0x00, 0xff, 0xff, 0x00, 0x80}));
        const core::Tensor t = read_npy(path, std::nullopt);
        EXPECT_EQ(t.type, ElementType::i16);
        const auto v = t.values<std::int16_t>();
        ASSERT_EQ(v.size(), 3u);
        EXPECT_EQ(v[0], 1);
        EXPECT_EQ(v[1], -1);
        EXPECT_EQ(v[2], -32768);
    }
}

TEST(NpyRead, SwapsBigEndianData) {
    ScratchDir dir;
    const std::string path = dir.file("big.npy");
    write_bytes(path, npy_bytes(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }\n",
                                {0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xfe}));
    const core::Tensor t = read_npy(path, std::nullopt);
    EXPECT_EQ(t.values<std::int32_t>()[0], 1);
    EXPECT_EQ(t.values<std::int32_t>()[1], -2);

    // 1.5 is 0x3ff8000000000000 as a double.
    write_bytes(path, npy_bytes(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (), }\n",
                                {0x3f, 0xf8, 0, 0, 0, 0, 0, 0}));
    const core::Tensor d = read_npy(path, std::nullopt);
    EXPECT_EQ(d.type, ElementType::f64);
    EXPECT_TRUE(d.shape.empty());
    EXPECT_EQ(d.values<double>()[0], 1.5);
}

TEST(NpyRead, AcceptsHeaderVariants) {
    ScratchDir dir;
    const std::string path = dir.file("variant.npy");
    const Bytes data = {0x07, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00};
    for (const std::string& header : {
             std::string("{\"shape\": (2,), \"descr\": \"<u4\", \"fortran_order\": False}"),
             std::string("{'descr':'<u4','fortran_order':False,'shape':(2L,)}   \n"),
             std::string("{ 'fortran_order' : False , 'shape' : ( 2 , ) , 'descr' : '<u4' , }\n"),
             std::string("{'descr': '<u4', 'fortran_order': False, 'shape': (1, 2), }\n"),
         }) {
        SCOPED_TRACE(header);
        write_bytes(path, npy_bytes(1, header, data));
        const core::Tensor t = read_npy(path, std::nullopt);
        EXPECT_EQ(t.type, ElementType::u32);
        EXPECT_EQ(t.size(), 2);
        EXPECT_EQ(t.values<std::uint32_t>()[0], 7u);
        EXPECT_EQ(t.values<std::uint32_t>()[1], 8u);
    }
}

TEST(NpyRead, ReordersFortranOrderToRowMajor) {
    ScratchDir dir;
    const std::string path = dir.file("fortran.npy");
    // [[1, 2, 3], [4, 5, 6]] stored column by column.
    write_bytes(path, npy_bytes(1, "{'descr': '|i1', 'fortran_order': True, 'shape': (2, 3), }\n",
                                {1, 4, 2, 5, 3, 6}));
    const core::Tensor t = read_npy(path, std::nullopt);
    EXPECT_EQ(t.shape, (core::Shape{2, 3}));
    const auto v = t.values<std::int8_t>();
    EXPECT_EQ(std::vector<std::int8_t>(v.begin(), v.end()),
              (std::vector<std::int8_t>{1, 2, 3, 4, 5, 6}));

    // a[i][j][k] = 100i + 10j + k for shape (2, 2, 2): in Fortran order i varies fastest.
    write_bytes(path,
                npy_bytes(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 2, 2), }\n",
                          {0, 0, 100, 0, 10, 0, 110, 0, 1, 0, 101, 0, 11, 0, 111, 0}));
    const core::Tensor c = read_npy(path, std::nullopt);
    const auto w = c.values<std::int16_t>();
    EXPECT_EQ(std::vector<std::int16_t>(w.begin(), w.end()),
              (std::vector<std::int16_t>{0, 1, 10, 11, 100, 101, 110, 111}));
}

TEST(NpyRead, ReadsBooleansAndRejectsOtherBytes) {
    ScratchDir dir;
    const std::string path = dir.file("bool.npy");
    const std::string header = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n";
    write_bytes(path, npy_bytes(1, header, {1, 0, 1}));
    const core::Tensor t = read_npy(path, std::nullopt);
    EXPECT_EQ(t.type, ElementType::boolean);
    EXPECT_EQ(t.bytes, (core::Bytes{std::byte{1}, std::byte{0}, std::byte{1}}));

    write_bytes(path, npy_bytes(1, header, {1, 2, 0}));
    expect_npy_error([&] { read_npy(path, std::nullopt); }, path, "byte value 2");
}

TEST(NpyRead, Bf16FromRawU16Bits) {
    ScratchDir dir;
    const std::string path = dir.file("bf16.npy");
    // bf16 1.5 = 0x3fc0, -inf = 0xff80.
    write_bytes(path, npy_bytes(1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }\n",
                                {0xc0, 0x3f, 0x80, 0xff}));
    const core::Tensor plain = read_npy(path, std::nullopt);
    EXPECT_EQ(plain.type, ElementType::u16);
    EXPECT_EQ(plain.values<std::uint16_t>()[0], 0x3fc0);

    const core::Tensor t = read_npy(path, ElementType::bf16);
    EXPECT_EQ(t.type, ElementType::bf16);
    EXPECT_EQ(core::to_float(t.values<core::BFloat16>()[0]), 1.5f);
    EXPECT_EQ(core::to_float(t.values<core::BFloat16>()[1]), -INFINITY);
}

TEST(NpyRead, RequestedDtypeMustMatch) {
    ScratchDir dir;
    const std::string path = dir.file("pair.npy");
    write_bytes(path, numpy_i32_pair());
    EXPECT_EQ(read_npy(path, ElementType::i32).type, ElementType::i32);
    expect_npy_error([&] { read_npy(path, ElementType::f32); }, path,
                     "holds i32 data (descr '<i4'), but f32 was requested");
    expect_npy_error([&] { read_npy(path, ElementType::bf16); }, path, "bf16 was requested");
}

TEST(NpyRead, MissingFileAndDirectory) {
    ScratchDir dir;
    const std::string missing = dir.file("missing.npy");
    expect_npy_error([&] { read_npy(missing, std::nullopt); }, missing, "file not found");
    const std::string folder = dir.path().string();
    expect_npy_error([&] { read_npy(folder, std::nullopt); }, folder, "not a regular file");
}

struct Malformed {
    const char* name;
    Bytes bytes;
    const char* message;
};

const std::string kI32Pair = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }\n";
const Bytes kPairData = {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff};

std::vector<Malformed> malformed_files() {
    Bytes no_magic = numpy_i32_pair();
    no_magic[5] = 'X';
    Bytes long_header = npy_bytes(1, kI32Pair, {});
    long_header[8] = 0xff;  // header length 255, but only the real header's bytes follow
    const auto with_header = [](const std::string& h) { return npy_bytes(1, h, kPairData); };
    return {
        {"empty", {}, "not an npy file"},
        {"bad magic", no_magic, "not an npy file"},
        {"text file", {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'}, "not an npy file"},
        {"only magic", {0x93, 'N', 'U', 'M', 'P', 'Y'}, "preamble"},
        {"no length", {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0x10}, "preamble"},
        {"version 4", npy_bytes(4, kI32Pair, kPairData), "unsupported npy format version 4.0"},
        {"version 1.1",
         [] {
             Bytes b = numpy_i32_pair();
             b[7] = 1;
             return b;
         }(),
         "unsupported npy format version 1.1"},
        {"header past end", long_header, "runs past the end"},
        {"truncated data", npy_bytes(1, kI32Pair, {1, 0, 0, 0, 0xfe, 0xff, 0xff}),
         "data is shorter than the header says"},
        {"no data", npy_bytes(1, kI32Pair, {}), "data is shorter than the header says"},
        {"trailing garbage", npy_bytes(1, kI32Pair, {1, 0, 0, 0, 2, 0, 0, 0, 9}),
         "trailing garbage"},
        {"complex", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }"),
         "unsupported descr '<c8'"},
        {"odd size", with_header("{'descr': '<i3', 'fortran_order': False, 'shape': (2,), }"),
         "unsupported descr '<i3'"},
        {"long double", with_header("{'descr': '<f16', 'fortran_order': False, 'shape': (), }"),
         "unsupported descr '<f16'"},
        {"no byte order", with_header("{'descr': 'i4', 'fortran_order': False, 'shape': (2,), }"),
         "unsupported descr 'i4'"},
        {"structured",
         with_header("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }"),
         "structured"},
        {"missing shape", with_header("{'descr': '<i4', 'fortran_order': False, }"),
         "missing key 'shape'"},
        {"unknown key",
         with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}"),
         "unknown key 'x'"},
        {"duplicate key",
         with_header("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}"),
         "duplicate key 'descr'"},
        {"shape not a tuple", with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2)}"),
         "not a tuple"},
        {"negative dim", with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}"),
         "negative dimension"},
        {"huge dim",
         with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
         "overflows 64 bits"},
        {"count overflow",
         with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"),
         "invalid shape"},
        {"large shape, little data",
         with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (1000000000, 1000)}"),
         "data is shorter than the header says"},
        {"bad bool", with_header("{'descr': '<i4', 'fortran_order': 0, 'shape': (2,)}"),
         "expected True or False"},
        {"unterminated", with_header("{'descr': '<i4"), "unterminated string"},
        {"no closing brace", with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)"),
         "expected '}'"},
        {"text after dict",
         with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} extra"),
         "unexpected text after the dict"},
        {"not a dict", with_header("['descr', '<i4']"), "expected '{'"},
        {"binary header", npy_bytes(1, std::string("\x01\xff\x00", 3), kPairData), "bad header"},
    };
}

TEST(NpyRead, MalformedFilesGiveInputErrorsNamingThePath) {
    ScratchDir dir;
    const std::string path = dir.file("bad.npy");
    for (const Malformed& m : malformed_files()) {
        SCOPED_TRACE(m.name);
        write_bytes(path, m.bytes);
        expect_npy_error([&] { read_npy(path, std::nullopt); }, path, m.message);
    }
}

// Resource limits (issue 11): a header may claim any size; only a file that really holds that
// many bytes gets memory. Under ASan an attempted allocation of 2^60+ bytes aborts the test, and
// in a plain build it throws std::bad_alloc or std::length_error, which is no core::Error.
TEST(NpyRead, LimitsHugeShapeClaimsAreRefusedBeforeAllocating) {
    struct Claim {
        const char* header;
        const char* layout;  // hand-computed: the product of the dims, the descr's byte size
    };
    const Claim claims[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1073741824, 1073741824), }",
         "needs 1152921504606846976 elements of 4 bytes"},  // 2^30 * 2^30 = 2^60
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }",
         "needs 4611686018427387904 elements of 8 bytes"},  // 2^62 * 8 bytes overflows 64 bits
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (1152921504606846976,), }",
         "needs 1152921504606846976 elements of 1 bytes"},  // 2^60
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }",
         "needs 268435456 elements of 4 bytes"},  // 1 GiB: allocatable, but not there
    };
    ScratchDir dir;
    const std::string path = dir.file("huge.npy");
    for (const Claim& c : claims) {
        SCOPED_TRACE(c.header);
        write_bytes(path, npy_bytes(1, std::string(c.header) + "\n", Bytes(16, 0x5a)));
        expect_npy_error([&] { read_npy(path, std::nullopt); }, path,
                         std::string(c.layout) + ", but only 16 bytes follow the header");
    }
}

TEST(NpyRead, LimitsMaxFileBytesIsCheckedOnTheOpenedFile) {
    ScratchDir dir;
    const std::string path = dir.file("pair.npy");
    write_bytes(path, numpy_i32_pair());  // 10 + 118 + 8 = 136 bytes
    EXPECT_EQ(read_npy(path, std::nullopt, {.max_file_bytes = 136}).size(), 2);
    expect_npy_error([&] { read_npy(path, std::nullopt, {.max_file_bytes = 135}); }, path,
                     "file is 136 bytes, more than the 135 bytes allowed");
}

TEST(NpyRead, LimitsSymlinkIsRefusedWhenNotFollowing) {
    ScratchDir dir;
    const std::string target = dir.file("pair.npy"), link = dir.file("link.npy");
    write_bytes(target, numpy_i32_pair());
    std::filesystem::create_symlink(target, link);
    EXPECT_EQ(read_npy(link, std::nullopt).size(), 2);
    expect_npy_error([&] { read_npy(link, std::nullopt, {.follow_symlinks = false}); }, link,
                     "is a symbolic link");
}

TEST(NpyRead, EveryTruncationIsAnInputError) {
    ScratchDir dir;
    const std::string path = dir.file("cut.npy");
    const Bytes whole = numpy_i32_pair();
    for (std::size_t n = 0; n < whole.size(); ++n) {
        SCOPED_TRACE(n);
        write_bytes(path, Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n)));
        expect_npy_error([&] { read_npy(path, std::nullopt); }, path, "");
    }
}

// Each single corrupted byte either still decodes or is reported; nothing else may happen
// (the sanitizer build turns out-of-bounds reads into failures).
TEST(NpyRead, CorruptedBytesNeverEscapeAsOtherFailures) {
    ScratchDir dir;
    const std::string path = dir.file("flip.npy");
    const Bytes whole = numpy_i32_pair();
    for (std::size_t n = 0; n < whole.size(); ++n) {
        for (const std::uint8_t value : {0x00, 0x29, 0xff}) {
            Bytes bytes = whole;
            bytes[n] = value;
            write_bytes(path, bytes);
            try {
                const core::Tensor t = read_npy(path, std::nullopt);
                EXPECT_EQ(static_cast<std::size_t>(t.size()) * core::byte_size(t.type),
                          t.bytes.size());
            } catch (const core::Error& e) {
                EXPECT_EQ(e.kind(), core::ErrorKind::input) << e.what();
            }
        }
    }
}

// Distinct bytes per element, so that a swapped or misplaced element shows. Booleans must stay
// 0 or 1; any byte pattern is a valid integer or float (NaN payloads included).
core::Tensor patterned(ElementType type, core::Shape shape) {
    core::Tensor t = core::Tensor::zeros(type, std::move(shape));
    for (std::size_t i = 0; i < t.bytes.size(); ++i)
        t.bytes[i] =
            type == ElementType::boolean ? std::byte(i % 2) : std::byte((i * 37 + 11) & 0xff);
    return t;
}

TEST(NpyRoundTrip, EveryDtypeAndShape) {
    ScratchDir dir;
    const std::string path = dir.file("round.npy");
    for (const auto& info : core::kElementTypes) {
        for (const core::Shape& shape :
             {core::Shape{2, 3}, core::Shape{}, core::Shape{5}, core::Shape{0, 3}}) {
            SCOPED_TRACE(std::string(info.name) + " " + core::to_string(shape));
            const core::Tensor t = patterned(info.type, shape);
            write_npy(path, t);
            const core::Tensor back = read_npy(path, info.type);
            EXPECT_EQ(back.type, info.type);
            EXPECT_EQ(back.shape, shape);
            EXPECT_EQ(back.bytes, t.bytes);
        }
    }
}

TEST(NpyWrite, MatchesNumpysBytes) {
    ScratchDir dir;
    const std::string path = dir.file("pair.npy");
    write_npy(path, core::make_tensor<ElementType::i32>({2}, {1, -2}));
    EXPECT_EQ(read_bytes(path), numpy_i32_pair());
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"pair.npy"});
}

TEST(NpyWrite, Bf16IsStoredAsU2) {
    ScratchDir dir;
    const std::string path = dir.file("bf16.npy");
    write_npy(path, core::make_tensor<ElementType::bf16>({}, {core::BFloat16{0x3fc0}}));
    const std::string dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (), }";
    const Bytes bytes = read_bytes(path);
    ASSERT_EQ(bytes.size(), 130u);  // 128-byte preamble, one 2-byte element
    EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 10 + dict.size()), dict);
    EXPECT_EQ(bytes[127], '\n');
    EXPECT_EQ(bytes[128], 0xc0);
    EXPECT_EQ(bytes[129], 0x3f);
    EXPECT_EQ(read_npy(path, std::nullopt).type, ElementType::u16);
}

TEST(NpyWrite, ReplacesAnExistingFile) {
    ScratchDir dir;
    const std::string path = dir.file("x.npy");
    write_bytes(path, Bytes(1000, 0xaa));
    write_npy(path, core::make_tensor<ElementType::i32>({2}, {1, -2}));
    EXPECT_EQ(read_bytes(path), numpy_i32_pair());
}

TEST(NpyWrite, MissingDirectoryIsAnInputError) {
    ScratchDir dir;
    const std::string path = dir.file("no/such/dir/x.npy");
    expect_npy_error([&] { write_npy(path, core::make_tensor<ElementType::i32>({1}, {1})); }, path,
                     "cannot write");
}

TEST(NpyWrite, FailedRenameKeepsTargetAndLeavesNoTemporary) {
    ScratchDir dir;
    // A directory in the way makes the final rename fail after the data has been written.
    const std::string path = dir.file("taken.npy");
    std::filesystem::create_directory(path);
    write_bytes(dir.file("taken.npy/inside"), {1, 2, 3});
    expect_npy_error([&] { write_npy(path, core::make_tensor<ElementType::i32>({1}, {1})); }, path,
                     "cannot write");
    EXPECT_EQ(read_bytes(dir.file("taken.npy/inside")), (Bytes{1, 2, 3}));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"taken.npy"});
}

// A file-size limit makes write(2) itself fail part-way, which works even when running as root.
TEST(NpyWrite, FailedWriteKeepsExistingFileAndLeavesNoTemporary) {
    ScratchDir dir;
    const std::string path = dir.file("kept.npy");
    write_bytes(path, {4, 5, 6});
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 256;
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of a signal
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const core::Tensor big = core::Tensor::zeros(ElementType::i32, {1000});
    expect_npy_error([&] { write_npy(path, big); }, path, "File too large");
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_EQ(read_bytes(path), (Bytes{4, 5, 6}));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"kept.npy"});
}

TEST(NpyWrite, UnwritableDirectoryKeepsExistingFile) {
    if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
    ScratchDir dir;
    const std::string path = dir.file("kept.npy");
    write_bytes(path, {4, 5, 6});
    std::filesystem::permissions(
        dir.path(), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    expect_npy_error([&] { write_npy(path, core::make_tensor<ElementType::i32>({1}, {1})); }, path,
                     "cannot write");
    EXPECT_EQ(read_bytes(path), (Bytes{4, 5, 6}));
}

}  // namespace
}  // namespace io
