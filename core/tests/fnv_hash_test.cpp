#include "core/fnv_hash.hpp"

#include <gtest/gtest.h>

namespace {

// The FNV-1a 64-bit test vectors of the FNV reference code (test_fnv.c, fnv1a64_vector).
TEST(FnvHash, MatchesTheReferenceVectors) {
    EXPECT_EQ(core::fnv1a64(""), 0xcbf29ce484222325u);
    EXPECT_EQ(core::fnv1a64("a"), 0xaf63dc4c8601ec8cu);
    EXPECT_EQ(core::fnv1a64("foobar"), 0x85944171f73967e8u);
}

TEST(FnvHash, ReadsBytesAboveSevenBitsAsUnsigned) {
    // One step by hand: (basis ^ 0xff) * prime, modulo 2^64.
    EXPECT_EQ(core::fnv1a64("\xff"), (0xcbf29ce484222325u ^ 0xffu) * 0x100000001b3u);
}

}  // namespace
