#include "platform/host_platform.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"

namespace {

TEST(HostPlatform, NamesItsArchitectureAndCpu) {
    const platform::Platform& p = platform::host();
#if defined(__x86_64__)
    EXPECT_EQ(p.arch, "x86_64");
    // Every x86-64 CPU has SSE2: a feature reader that finds nothing fails here.
    EXPECT_TRUE(p.has("sse2"));
#elif defined(__aarch64__)
    EXPECT_EQ(p.arch, "aarch64");
#endif
    EXPECT_FALSE(p.vendor.empty());
    EXPECT_TRUE(std::is_sorted(p.features.begin(), p.features.end()));
}

TEST(HostPlatform, EveryFeatureIsKnown) {
    for (const std::string& f : platform::host().features)
        EXPECT_TRUE(platform::is_known_feature(f)) << f;
    EXPECT_TRUE(platform::is_known_feature("avx512_bf16"));
    EXPECT_TRUE(platform::is_known_feature("sve2"));
    EXPECT_FALSE(platform::is_known_feature("avx512bf16"));  // cpu_features spells it avx512_bf16
}

}  // namespace

namespace {

// platform/arm64_features.py's output for QEMU's neoverse-n1, as the probe printed it.
TEST(EmulatedPlatform, ReadsTheProbesArchAndFeatures) {
    const platform::Platform p = platform::emulated(
        "arch aarch64\nfeatures asimd asimddp asimdhp fphp\n", "neoverse-n1", "qemu-aarch64");
    EXPECT_EQ(p.arch, "aarch64");
    EXPECT_EQ(p.model, "neoverse-n1");
    EXPECT_EQ(p.emulator, "qemu-aarch64");
    EXPECT_EQ(p.features, (std::vector<std::string>{"asimd", "asimddp", "asimdhp", "fphp"}));
    EXPECT_TRUE(p.has("asimddp"));
    EXPECT_FALSE(p.has("sve"));
    EXPECT_NE(platform::describe(p).find("(emulated: qemu-aarch64)"), std::string::npos);
}

TEST(EmulatedPlatform, RejectsOutputWithoutArchOrWithUnknownFeatures) {
    EXPECT_THROW(platform::emulated("features sve\n", "max", "qemu"), core::Error);
    EXPECT_THROW(platform::emulated("arch aarch64\nfeatures sve frobnicate\n", "max", "qemu"),
                 core::Error);
}

}  // namespace
