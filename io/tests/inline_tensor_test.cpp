#include "io/inline_tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "io/tests/scratch_dir.hpp"

namespace io {
namespace {

using core::ElementType;

template <class T>
std::vector<T> values_of(const core::Tensor& t) {
    const auto v = t.values<T>();
    return {v.begin(), v.end()};
}

// Raw encodings, to compare floats (and their NaNs and zeros) exactly.
template <class Bits>
std::vector<Bits> bits_of(const core::Tensor& t) {
    std::vector<Bits> out(t.bytes.size() / sizeof(Bits));
    std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
    return out;
}

// `f` must throw core::Error(input) whose message quotes `quoted` and says `what`.
template <class F>
void expect_inline_error(F f, const std::string& quoted, const std::string& what) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one saying '" << what << "'";
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find("'" + quoted + "'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

void expect_inline_error(const std::string& text, const std::string& what,
                         std::optional<ElementType> dtype = std::nullopt) {
    SCOPED_TRACE(text);
    expect_inline_error([&] { parse_inline_tensor(text, dtype); }, text, what);
}

TEST(InlineTensor, IntegerAndBooleanDtypes) {
    const core::Tensor b = parse_inline_tensor("boolean:3:true,false,1", std::nullopt);
    EXPECT_EQ(b.type, ElementType::boolean);
    EXPECT_EQ(values_of<bool>(b), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(values_of<std::int8_t>(parse_inline_tensor("i8:3:-128,127,0x10", std::nullopt)),
              (std::vector<std::int8_t>{-128, 127, 16}));
    EXPECT_EQ(values_of<std::int16_t>(parse_inline_tensor("i16:2:min,max", std::nullopt)),
              (std::vector<std::int16_t>{-32768, 32767}));
    const core::Tensor i32 = parse_inline_tensor("i32:2x2:1,-2,3,-4", std::nullopt);
    EXPECT_EQ(i32.shape, (core::Shape{2, 2}));
    EXPECT_EQ(values_of<std::int32_t>(i32), (std::vector<std::int32_t>{1, -2, 3, -4}));
    EXPECT_EQ(values_of<std::int64_t>(parse_inline_tensor(
                  "i64:2:-9223372036854775808,9223372036854775807", std::nullopt)),
              (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(),
                                         std::numeric_limits<std::int64_t>::max()}));
    EXPECT_EQ(values_of<std::uint8_t>(parse_inline_tensor("u8:2:0,255", std::nullopt)),
              (std::vector<std::uint8_t>{0, 255}));
    EXPECT_EQ(values_of<std::uint16_t>(parse_inline_tensor("u16:2:0xffff,1", std::nullopt)),
              (std::vector<std::uint16_t>{65535, 1}));
    EXPECT_EQ(values_of<std::uint32_t>(parse_inline_tensor("u32:1:4294967295", std::nullopt)),
              (std::vector<std::uint32_t>{4294967295u}));
    EXPECT_EQ(
        values_of<std::uint64_t>(parse_inline_tensor("u64:2:18446744073709551615,0", std::nullopt)),
        (std::vector<std::uint64_t>{18446744073709551615ull, 0}));
}

TEST(InlineTensor, FloatDtypes) {
    // f16: 1 = 0x3c00, -0 = 0x8000, inf = 0x7c00, 2^-24 = 0x0001, max = 65504 = 0x7bff,
    // 0.1 rounds to 0x2e66.
    const core::Tensor h = parse_inline_tensor("f16:6:1,-0,inf,0x1p-24,max,0.1", std::nullopt);
    EXPECT_EQ(h.type, ElementType::f16);
    EXPECT_EQ(bits_of<std::uint16_t>(h),
              (std::vector<std::uint16_t>{0x3c00, 0x8000, 0x7c00, 0x0001, 0x7bff, 0x2e66}));
    // bf16: 1.5 = 0x3fc0, -inf = 0xff80, max = 0x7f7f.
    const core::Tensor b = parse_inline_tensor("bf16:4:1.5,-inf,max,nan", std::nullopt);
    const auto bb = bits_of<std::uint16_t>(b);
    EXPECT_EQ(bb[0], 0x3fc0);
    EXPECT_EQ(bb[1], 0xff80);
    EXPECT_EQ(bb[2], 0x7f7f);
    EXPECT_TRUE(std::isnan(core::to_float(b.values<core::BFloat16>()[3])));
    // f32: 0.1 = 0x3dcccccd, -0 = 0x80000000, max = 0x7f7fffff, denorm_min = 0x00000001.
    EXPECT_EQ(
        bits_of<std::uint32_t>(parse_inline_tensor("f32:4:0.1,-0,max,denorm_min", std::nullopt)),
        (std::vector<std::uint32_t>{0x3dcccccd, 0x80000000, 0x7f7fffff, 0x00000001}));
    // f64: 2^-1074 = 0x1, lowest = -DBL_MAX = 0xffefffffffffffff.
    const core::Tensor d = parse_inline_tensor("f64:3:0x1p-1074,lowest,-nan", std::nullopt);
    const auto db = bits_of<std::uint64_t>(d);
    EXPECT_EQ(db[0], 1u);
    EXPECT_EQ(db[1], 0xffefffffffffffffull);
    EXPECT_TRUE(std::isnan(d.values<double>()[2]));
    EXPECT_TRUE(std::signbit(d.values<double>()[2]));
}

TEST(InlineTensor, DtypeAliases) {
    EXPECT_EQ(parse_inline_tensor("float32:2:1,2", std::nullopt).type, ElementType::f32);
    EXPECT_EQ(parse_inline_tensor("int64:1:5", std::nullopt).type, ElementType::i64);
    EXPECT_EQ(parse_inline_tensor("bool:1:true", std::nullopt).type, ElementType::boolean);
    EXPECT_EQ(parse_inline_tensor("bfloat16:1:1", std::nullopt).type, ElementType::bf16);
}

TEST(InlineTensor, ScalarHasRankZero) {
    const core::Tensor t = parse_inline_tensor("f32::1.5", std::nullopt);
    EXPECT_TRUE(t.shape.empty());
    EXPECT_EQ(values_of<float>(t), (std::vector<float>{1.5f}));
    const core::Tensor u = parse_inline_tensor(":-3", ElementType::i8);
    EXPECT_TRUE(u.shape.empty());
    EXPECT_EQ(values_of<std::int8_t>(u), (std::vector<std::int8_t>{-3}));
}

TEST(InlineTensor, ZeroSizeTakesNoValues) {
    for (const char* text : {"f32:0x3:", "f32:0x3:[]", "f32:0x3: [ ] "}) {
        SCOPED_TRACE(text);
        const core::Tensor t = parse_inline_tensor(text, std::nullopt);
        EXPECT_EQ(t.shape, (core::Shape{0, 3}));
        EXPECT_TRUE(t.bytes.empty());
    }
}

TEST(InlineTensor, SingleValueFills) {
    const core::Tensor t = parse_inline_tensor("i32:2x2:7", std::nullopt);
    EXPECT_EQ(values_of<std::int32_t>(t), (std::vector<std::int32_t>{7, 7, 7, 7}));
    const core::Tensor h = parse_inline_tensor("f16:3:[-0]", std::nullopt);
    EXPECT_EQ(bits_of<std::uint16_t>(h), (std::vector<std::uint16_t>{0x8000, 0x8000, 0x8000}));
    EXPECT_TRUE(parse_inline_tensor("u8:0:5", std::nullopt).bytes.empty());
}

TEST(InlineTensor, BracketsAndSpaces) {
    for (const char* text : {"f32:3:[1, 2, 3]", " f32 : 3 : [ 1 ,2,  3 ] ", "f32:3:1,2,3"}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(values_of<float>(parse_inline_tensor(text, std::nullopt)),
                  (std::vector<float>{1, 2, 3}));
    }
    EXPECT_EQ(parse_inline_tensor("f32: 2 x 3 :0", std::nullopt).shape, (core::Shape{2, 3}));
}

TEST(InlineTensor, DefaultDtype) {
    const core::Tensor t = parse_inline_tensor("2:1,2", ElementType::u16);
    EXPECT_EQ(t.type, ElementType::u16);
    EXPECT_EQ(values_of<std::uint16_t>(t), (std::vector<std::uint16_t>{1, 2}));
    EXPECT_EQ(parse_inline_tensor("float:1:1", ElementType::f32).type, ElementType::f32);
    expect_inline_error("f32:1:1", "conflicts with the requested dtype f16", ElementType::f16);
    expect_inline_error("2:1,2", "no dtype given");
}

TEST(InlineTensor, Errors) {
    expect_inline_error("f33:1:1", "unknown dtype 'f33'");
    expect_inline_error(":1:1", "unknown dtype ''");
    expect_inline_error("f32:2y3:1", "bad dimension '2y3'");
    expect_inline_error("f32:2xx3:1", "bad dimension ''");
    expect_inline_error("f32:-1:1", "bad dimension '-1'");
    expect_inline_error("f32:99999999999999999999:1", "too large");
    expect_inline_error("f32:4294967296x4294967296:1", "overflows");
    expect_inline_error("f32:1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1:1", "rank 17");
    expect_inline_error("i32:3:1,2", "shape (3) needs 3 values, got 2");
    expect_inline_error("i32:2x2:1,2,3,4,5", "shape (2,2) needs 4 values, got 5");
    expect_inline_error("f32::", "shape () needs 1 value, got 0");
    expect_inline_error("i8:2:1,300", "'300' is not a valid i8");
    expect_inline_error("f32:2:1,abc", "value 1");
    expect_inline_error("u8:0:abc", "'abc' is not a valid u8");
    expect_inline_error("boolean:1:2", "'2' is not a valid boolean");
    expect_inline_error("i32:3:1,,2", "value 1 is empty");
    expect_inline_error("i32:2:1,2,", "value 2 is empty");
    expect_inline_error("i32:2:[1,2", "unbalanced brackets");
    expect_inline_error("i32:2:1,2]", "unbalanced brackets");
    expect_inline_error("i32:2x2:[[1,2],[3,4]]", "nested brackets");
    expect_inline_error("f32:2:1:2", "expected [DTYPE:]SHAPE:VALUES");
    expect_inline_error("1,2,3", "expected [DTYPE:]SHAPE:VALUES");
}

TEST(LoadInput, NpyPathOrInlineText) {
    testing::ScratchDir dir;
    const std::string path = dir.file("in.npy");
    // '<u2' file with the bits of bf16 1.5 (0x3fc0) and 2.0 (0x4000).
    const std::string header = "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }\n";
    testing::Bytes bytes = {
        0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(header.size()), 0};
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.insert(bytes.end(), {0xc0, 0x3f, 0x00, 0x40});
    testing::write_bytes(path, bytes);

    const core::Tensor t = load_input(path, ElementType::bf16);
    EXPECT_EQ(t.type, ElementType::bf16);
    EXPECT_EQ(core::to_float(t.values<core::BFloat16>()[0]), 1.5f);
    EXPECT_EQ(core::to_float(t.values<core::BFloat16>()[1]), 2.0f);

    EXPECT_EQ(values_of<float>(load_input("2:0.5,4", ElementType::f32)),
              (std::vector<float>{0.5f, 4.0f}));
    const std::string missing = dir.file("missing.npy");
    expect_inline_error([&] { load_input(missing, std::nullopt); }, missing, "file not found");
    expect_inline_error([&] { load_input("data.bin", std::nullopt); }, "data.bin",
                        "neither an .npy file");
}

// Found by fuzz/inline_tensor_fuzzer.cpp: one value filling 10^16 elements was allocated.
TEST(InlineTensor, OneValueFillsAtMostTheCap) {
    expect_inline_error("u8:99999999999999996:0", "one value fills at most 67108864 elements");
    expect_inline_error("f64:67108865:1", "one value fills at most");
    EXPECT_EQ(parse_inline_tensor("u8:8192x8192:3", std::nullopt).size(), 67108864);
}

}  // namespace
}  // namespace io
