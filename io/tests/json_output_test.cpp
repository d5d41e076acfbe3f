#include "io/json_output.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"
#include "io/tests/scratch_dir.hpp"

namespace io {
namespace {

using core::ElementType;
using nlohmann::json;

// A float tensor from raw encodings, so that NaN signs and -0 are exactly what the test says.
template <ElementType T, class Bits>
core::Tensor from_bits(core::Shape shape, const std::vector<Bits>& bits) {
    core::Tensor t = core::Tensor::zeros(T, std::move(shape));
    EXPECT_EQ(t.bytes.size(), bits.size() * sizeof(Bits));
    std::memcpy(t.bytes.data(), bits.data(), t.bytes.size());
    return t;
}

TEST(TensorJson, IntegersWithoutBits) {
    const json j = tensor_to_json(core::make_tensor<ElementType::i32>({2, 2}, {1, -2, 3, 4}), {});
    EXPECT_EQ(j, json::parse(R"({"dtype": "i32", "shape": [2, 2], "values": [1, -2, 3, 4],
                                 "undefined": []})"));
    EXPECT_FALSE(j.contains("bits"));
}

TEST(TensorJson, SixtyFourBitIntegersAreExact) {
    const json s = tensor_to_json(
        core::make_tensor<ElementType::i64>(
            {2}, {std::numeric_limits<std::int64_t>::min(), 9007199254740993}),  // 2^53 + 1
        {});
    EXPECT_TRUE(s["values"][0].is_number_integer());
    EXPECT_EQ(s["values"][0].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(s["values"][1].get<std::int64_t>(), 9007199254740993);
    EXPECT_EQ(s.dump().find("9007199254740993") != std::string::npos, true);

    const json u = tensor_to_json(
        core::make_tensor<ElementType::u64>({1}, {std::numeric_limits<std::uint64_t>::max()}), {});
    EXPECT_TRUE(u["values"][0].is_number_unsigned());
    EXPECT_EQ(u["values"][0].get<std::uint64_t>(), 18446744073709551615ull);
    EXPECT_NE(u.dump().find("[18446744073709551615]"), std::string::npos);
}

TEST(TensorJson, SmallIntegersAreNumbersNotCharacters) {
    const json j = tensor_to_json(core::make_tensor<ElementType::i8>({2}, {-5, 65}), {});
    EXPECT_EQ(j["values"].dump(), "[-5,65]");
    const json u = tensor_to_json(core::make_tensor<ElementType::u8>({1}, {200}), {});
    EXPECT_EQ(u["values"].dump(), "[200]");
}

TEST(TensorJson, Booleans) {
    const json j = tensor_to_json(core::make_tensor<ElementType::boolean>({2}, {true, false}), {});
    EXPECT_EQ(j["dtype"], "boolean");
    EXPECT_EQ(j["values"], json::parse("[true, false]"));
    EXPECT_FALSE(j.contains("bits"));
}

TEST(TensorJson, F32SpecialsAreStrings) {
    // 1.5, nan, -nan, inf, -inf, -0, 0, 0.1f
    const core::Tensor t = from_bits<ElementType::f32, std::uint32_t>(
        {8}, {0x3fc00000, 0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x80000000, 0x00000000,
              0x3dcccccd});
    const json j = tensor_to_json(t, {});
    EXPECT_EQ(j["dtype"], "f32");
    const json& v = j["values"];
    EXPECT_EQ(v[0], 1.5);
    EXPECT_EQ(v[1], "nan");
    EXPECT_EQ(v[2], "-nan");
    EXPECT_EQ(v[3], "inf");
    EXPECT_EQ(v[4], "-inf");
    EXPECT_EQ(v[5], "-0");
    EXPECT_TRUE(v[6].is_number_float());
    EXPECT_EQ(v[6].get<double>(), 0.0);
    // The f32 nearest 0.1 is 13421773 * 2^-27, exactly.
    EXPECT_EQ(v[7].get<double>(), 13421773 * 0x1p-27);
    EXPECT_EQ(j["bits"], json::parse(R"(["0x3fc00000", "0x7fc00000", "0xffc00000", "0x7f800000",
                                         "0xff800000", "0x80000000", "0x00000000", "0x3dcccccd"])"));
}

TEST(TensorJson, BitsHaveFixedWidthPerType) {
    // f16 1.0 = 0x3c00 and 2^-24 = 0x0001; bf16 1.5 = 0x3fc0 and -0 = 0x8000.
    const json h =
        tensor_to_json(from_bits<ElementType::f16, std::uint16_t>({2}, {0x3c00, 0x0001}), {});
    EXPECT_EQ(h["bits"], json::parse(R"(["0x3c00", "0x0001"])"));
    EXPECT_EQ(h["values"][0].get<double>(), 1.0);
    EXPECT_EQ(h["values"][1].get<double>(), 0x1p-24);
    const json b =
        tensor_to_json(from_bits<ElementType::bf16, std::uint16_t>({2}, {0x3fc0, 0x8000}), {});
    EXPECT_EQ(b["dtype"], "bf16");
    EXPECT_EQ(b["bits"], json::parse(R"(["0x3fc0", "0x8000"])"));
    EXPECT_EQ(b["values"], json::parse(R"([1.5, "-0"])"));
    // f64 1.0 = 0x3ff0000000000000, smallest subnormal = 0x1.
    const json d = tensor_to_json(
        from_bits<ElementType::f64, std::uint64_t>({2}, {0x3ff0000000000000, 0x1}), {});
    EXPECT_EQ(d["bits"], json::parse(R"(["0x3ff0000000000000", "0x0000000000000001"])"));
    EXPECT_EQ(d["values"][1].get<double>(), 0x1p-1074);
}

TEST(TensorJson, UndefinedElementsAreNull) {
    const core::Tensor t = core::make_tensor<ElementType::f32>({3}, {1.0f, 2.0f, 3.0f});
    const json j = tensor_to_json(t, {2, 0, 2});
    EXPECT_EQ(j["undefined"], json::parse("[0, 2]"));
    EXPECT_EQ(j["values"], json::parse("[null, 2.0, null]"));
    EXPECT_EQ(j["bits"], json::parse(R"([null, "0x40000000", null])"));

    const json i = tensor_to_json(core::make_tensor<ElementType::i32>({2}, {1, 0}), {1});
    EXPECT_EQ(i["values"], json::parse("[1, null]"));
    EXPECT_THROW(tensor_to_json(t, {3}), std::out_of_range);
    EXPECT_THROW(tensor_to_json(t, {-1}), std::out_of_range);
}

TEST(TensorJson, ScalarAndEmpty) {
    const json s = tensor_to_json(core::make_tensor<ElementType::f64>({}, {-2.5}), {});
    EXPECT_EQ(s, json::parse(R"({"dtype": "f64", "shape": [], "values": [-2.5],
                                 "undefined": [], "bits": ["0xc004000000000000"]})"));
    const json e = tensor_to_json(core::Tensor::zeros(ElementType::f16, {0, 3}), {});
    EXPECT_EQ(e, json::parse(R"({"dtype": "f16", "shape": [0, 3], "values": [],
                                 "undefined": [], "bits": []})"));
}

TEST(TextFile, WritesAndReplaces) {
    testing::ScratchDir dir;
    const std::string path = dir.file("out.json");
    write_text_file(path, "first, longer contents\n");
    write_text_file(path, "{}\n");
    EXPECT_EQ(testing::read_bytes(path), (testing::Bytes{'{', '}', '\n'}));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
}

TEST(TextFile, ErrorsNameThePath) {
    testing::ScratchDir dir;
    for (const std::string& path : {dir.file("missing/out.json"), std::string()}) {
        try {
            write_text_file(path, "x");
            ADD_FAILURE() << "no error for '" << path << "'";
        } catch (const core::Error& e) {
            EXPECT_EQ(e.kind(), core::ErrorKind::input);
            EXPECT_NE(std::string(e.what()).find("cannot write '" + path + "'"), std::string::npos)
                << e.what();
        }
    }
    // A directory in the way: the rename fails, and the directory and its contents survive.
    const std::string taken = dir.file("taken");
    std::filesystem::create_directory(taken);
    testing::write_bytes(taken + "/inside", {7});
    EXPECT_THROW(write_text_file(taken, "x"), core::Error);
    EXPECT_EQ(testing::read_bytes(taken + "/inside"), (testing::Bytes{7}));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"taken"});
}

}  // namespace
}  // namespace io
