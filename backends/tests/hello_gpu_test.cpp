// The hello's GPU facts (PROTOCOL.md section 9, item 20), read and written back; the lines are
// written by hand.
#include <gtest/gtest.h>

#include "backends/protocol.hpp"

namespace {

const std::string kHead =
    R"({"protocol": "eltwise-backend/1", "name": "g", "ops": {"onnx.Mul-14": ["f32"]})";

std::string gpu_error_of(const std::string& line) {
    try {
        backends::parse_hello(line);
    } catch (const backends::ProtocolError& e) {
        return e.what();
    }
    return "";
}

TEST(HelloGpu, FactsAreReadSortedAndWrittenBack) {
    const backends::Hello h = backends::parse_hello(
        kHead + R"(, "gpu": {"api": "webgpu", "vendor": "google", "architecture": "swiftshader",
                   "fallback": true, "features": ["timestamp-query", "float32-filterable"]}})");
    EXPECT_EQ(h.gpu.api, "webgpu");
    EXPECT_EQ(h.gpu.architecture, "swiftshader");
    EXPECT_TRUE(h.gpu.fallback);
    EXPECT_EQ(h.gpu.features, (std::vector<std::string>{"float32-filterable", "timestamp-query"}));
    EXPECT_EQ(backends::parse_hello(backends::to_line(h)).gpu, h.gpu);
    EXPECT_FALSE(backends::parse_hello(kHead + "}").gpu.present());
    EXPECT_EQ(backends::to_line(backends::parse_hello(kHead + "}")).find("gpu"), std::string::npos);
}

// PROTOCOL.md section 9, item 21: the library's build, kept as the hello says it.
TEST(HelloBuild, IsReadAndWrittenBack) {
    const backends::Hello h =
        backends::parse_hello(kHead + R"j(, "build": "ort.min.mjs (wasm EP; SIMD, 1 thread)"})j");
    EXPECT_EQ(h.build, "ort.min.mjs (wasm EP; SIMD, 1 thread)");
    EXPECT_EQ(backends::parse_hello(backends::to_line(h)).build, h.build);
    EXPECT_NE(gpu_error_of(kHead + R"(, "build": 1})").find("\"build\" is not a string"),
              std::string::npos);
}

TEST(HelloGpu, MalformedFactsAreProtocolErrors) {
    EXPECT_NE(gpu_error_of(kHead + R"(, "gpu": "swiftshader"})").find("\"gpu\" is not an object"),
              std::string::npos);
    EXPECT_NE(gpu_error_of(kHead + R"(, "gpu": {"vendor": "google"}})").find("\"api\""),
              std::string::npos);
    EXPECT_NE(gpu_error_of(kHead + R"(, "gpu": {"api": ""}})").find("gpu.api is empty"),
              std::string::npos);
    EXPECT_NE(gpu_error_of(kHead + R"(, "gpu": {"api": "webgl", "features": [1]}})")
                  .find("gpu.features holds a non-string"),
              std::string::npos);
    EXPECT_NE(gpu_error_of(kHead + R"(, "gpu": {"api": "webgl", "fallback": "yes"}})")
                  .find("\"fallback\" is not a boolean"),
              std::string::npos);
}

}  // namespace
