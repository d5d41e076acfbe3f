#include "platform/host_platform.hpp"

#include <gtest/gtest.h>

#include <algorithm>

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
