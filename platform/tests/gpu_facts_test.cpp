// GPU facts as a profile condition and a report column read them; values written by hand.
#include "platform/gpu_facts.hpp"

#include <gtest/gtest.h>

namespace {

platform::GpuFacts swiftshader_webgpu() {
    return {"webgpu", "google", "swiftshader", "", "", true, {"float32-filterable"}};
}

TEST(GpuFacts, NamedMatchesAnyIdentityFieldCaseInsensitively) {
    EXPECT_TRUE(swiftshader_webgpu().named("SwiftShader"));
    EXPECT_TRUE(swiftshader_webgpu().named("google"));
    EXPECT_FALSE(swiftshader_webgpu().named("nvidia"));
    platform::GpuFacts webgl{
        "webgl", "", "", "", "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))",
        false,   {}};
    EXPECT_TRUE(webgl.named("swiftshader"));
    EXPECT_FALSE(platform::GpuFacts{}.named("swiftshader"));  // no GPU names nothing
    EXPECT_FALSE(swiftshader_webgpu().named(""));
}

TEST(GpuFacts, FeaturesAndDescription) {
    EXPECT_TRUE(swiftshader_webgpu().has("float32-filterable"));
    EXPECT_FALSE(swiftshader_webgpu().has("shader-f16"));
    EXPECT_EQ(describe(swiftshader_webgpu()),
              "webgpu 'google' 'swiftshader' (fallback) float32-filterable");
    EXPECT_EQ(describe(platform::GpuFacts{}), "");
    EXPECT_EQ(short_name(swiftshader_webgpu()), "swiftshader");
}

}  // namespace
