// The shapes a converter hands to a numpy-only library for each broadcast rule. Expected values
// are the spec examples of docs/SEMANTICS.md section 3, lowered by hand (B's dims at the axis,
// 1s around).
#include "backends/adapters/converter_lowering.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

#include "core/error.hpp"

namespace backends::adapters {
namespace {

using core::Shape;
const Shape kA = {2, 3, 4, 5};

core::BroadcastSpec none() {
    return {core::BroadcastRule::none, std::nullopt};
}
core::BroadcastSpec legacy(std::optional<std::int64_t> axis = std::nullopt) {
    return {core::BroadcastRule::onnx_legacy, axis};
}
core::BroadcastSpec pdpd(std::int64_t axis) {
    return {core::BroadcastRule::pdpd, axis};
}

TEST(ConverterLowering, NumpyPassesShapesThroughAndTakesTheLargerDims) {
    const auto s = lower_shapes({8, 1, 6, 1}, {7, 1, 5}, {});
    EXPECT_EQ(s.a, (Shape{8, 1, 6, 1}));
    EXPECT_EQ(s.b, (Shape{7, 1, 5}));
    EXPECT_EQ(s.output, (Shape{8, 7, 6, 5}));
    EXPECT_EQ(lower_shapes({}, {}, {}).output, Shape{});
}

TEST(ConverterLowering, NumpyLeavesIncompatibleShapesToTheLibrary) {
    EXPECT_EQ(lower_shapes({3}, {2}, {}).b, (Shape{2}));  // no throw: the library decides
}

TEST(ConverterLowering, NumpyKeepsZeroDims) {
    EXPECT_EQ(lower_shapes({0, 3}, {1, 3}, {}).output, (Shape{0, 3}));
    EXPECT_EQ(lower_shapes({1}, {0}, {}).output, (Shape{0}));
}

TEST(ConverterLowering, RejectsNegativeDims) {
    EXPECT_THROW(lower_shapes({2, -1}, {1}, {}), core::Error);
}

TEST(ConverterLowering, NoneNeedsEqualShapes) {
    const auto s = lower_shapes({256, 56}, {256, 56}, none());
    EXPECT_EQ(s.b, (Shape{256, 56}));
    EXPECT_EQ(s.output, (Shape{256, 56}));
    EXPECT_EQ(lower_shapes({}, {}, none()).output, Shape{});
    EXPECT_THROW(lower_shapes({2, 3}, {3}, none()), core::Error);
    EXPECT_THROW(lower_shapes({2, 3}, {1, 3}, none()), core::Error);
}

TEST(ConverterLowering, LegacySuffixAxisAndOneElement) {
    EXPECT_EQ(lower_shapes(kA, {5}, legacy()).b, (Shape{1, 1, 1, 5}));
    EXPECT_EQ(lower_shapes(kA, {4, 5}, legacy()).b, (Shape{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {3, 4}, legacy(1)).b, (Shape{1, 3, 4, 1}));
    EXPECT_EQ(lower_shapes(kA, {2}, legacy(0)).b, (Shape{2, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {}, legacy()).b, (Shape{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {1, 1}, legacy()).b, (Shape{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {5}, legacy()).a, kA);
    EXPECT_EQ(lower_shapes(kA, {5}, legacy()).output, kA);
    EXPECT_EQ(lower_shapes({}, {}, legacy()).b, Shape{});
}

TEST(ConverterLowering, LegacyRejectsWhatTheSpecRejects) {
    EXPECT_THROW(lower_shapes(kA, {3, 1}, legacy(1)), core::Error);       // 1s do not stretch
    EXPECT_THROW(lower_shapes(kA, {3, 4}, legacy()), core::Error);        // suffix is (4,5)
    EXPECT_THROW(lower_shapes(kA, {4, 5}, legacy(3)), core::Error);       // does not fit
    EXPECT_THROW(lower_shapes({5}, {1, 5}, legacy()), core::Error);       // rank(B) > rank(A)
    EXPECT_THROW(lower_shapes(kA, {5}, legacy(INT64_MAX)), core::Error);  // no overflow (UBSan)
}

TEST(ConverterLowering, PdpdPlacesBAtTheAxisAfterDroppingTrailingOnes) {
    EXPECT_EQ(lower_shapes(kA, {3, 4}, pdpd(1)).b, (Shape{1, 3, 4, 1}));
    EXPECT_EQ(lower_shapes(kA, {3, 1}, pdpd(1)).b, (Shape{1, 3, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {4, 5}, pdpd(-1)).b, (Shape{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {4, 5}, pdpd(2)).b, (Shape{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {1, 3}, pdpd(0)).b, (Shape{1, 3, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {4, 5, 1}, pdpd(2)).b, (Shape{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {}, pdpd(-1)).b, (Shape{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {5}, pdpd(3)).output, kA);
    EXPECT_EQ(lower_shapes({}, {}, pdpd(-1)).b, Shape{});
}

TEST(ConverterLowering, PdpdRejectsWhatTheSpecRejects) {
    // The default axis counts B's trailing 1: (4,5) lands at axis 1, against A's (3,4).
    EXPECT_THROW(lower_shapes(kA, {4, 5, 1}, pdpd(-1)), core::Error);
    EXPECT_THROW(lower_shapes({8, 1, 6, 1}, {7, 1, 5}, pdpd(1)), core::Error);
    EXPECT_THROW(lower_shapes({2, 3}, {1, 2, 3}, pdpd(-1)), core::Error);
    EXPECT_THROW(lower_shapes({2, 3}, {3}, pdpd(2)), core::Error);
    EXPECT_THROW(lower_shapes({2, 3}, {3}, pdpd(INT64_MAX)), core::Error);  // no overflow
}

}  // namespace
}  // namespace backends::adapters
