// The shapes the XNNPACK adapter hands to XNNPACK for each broadcast rule. Expected values are
// the spec examples of SEMANTICS.md section 3, lowered by hand (B's dims at the axis, 1s around).
#include "backends/adapters/xnnpack/broadcast_lowering.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace backends::adapters::xnnpack {
namespace {

using Dims = std::vector<std::size_t>;
const core::Shape kA = {2, 3, 4, 5};

core::BroadcastSpec legacy(std::optional<std::int64_t> axis = std::nullopt) {
    return {core::BroadcastRule::onnx_legacy, axis};
}
core::BroadcastSpec pdpd(std::int64_t axis) {
    return {core::BroadcastRule::pdpd, axis};
}

TEST(XnnpackLowering, NumpyPassesShapesThroughAndTakesTheLargerDims) {
    const auto s = lower_shapes({8, 1, 6, 1}, {7, 1, 5}, {});
    EXPECT_EQ(s.a, (Dims{8, 1, 6, 1}));
    EXPECT_EQ(s.b, (Dims{7, 1, 5}));
    EXPECT_EQ(s.output, (core::Shape{8, 7, 6, 5}));
}

TEST(XnnpackLowering, NumpyLeavesIncompatibleShapesToXnnpack) {
    EXPECT_EQ(lower_shapes({3}, {2}, {}).b, (Dims{2}));  // no throw: XNNPACK decides
}

TEST(XnnpackLowering, NumpyKeepsZeroDims) {
    EXPECT_EQ(lower_shapes({0, 3}, {1, 3}, {}).output, (core::Shape{0, 3}));
    EXPECT_EQ(lower_shapes({1}, {0}, {}).output, (core::Shape{0}));
}

TEST(XnnpackLowering, NoneNeedsEqualShapes) {
    EXPECT_EQ(lower_shapes({256, 56}, {256, 56}, {core::BroadcastRule::none, {}}).b,
              (Dims{256, 56}));
    EXPECT_THROW(lower_shapes({2, 3}, {3}, {core::BroadcastRule::none, {}}), core::Error);
}

TEST(XnnpackLowering, LegacySuffixAxisAndOneElement) {
    EXPECT_EQ(lower_shapes(kA, {5}, legacy()).b, (Dims{1, 1, 1, 5}));
    EXPECT_EQ(lower_shapes(kA, {4, 5}, legacy()).b, (Dims{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {3, 4}, legacy(1)).b, (Dims{1, 3, 4, 1}));
    EXPECT_EQ(lower_shapes(kA, {2}, legacy(0)).b, (Dims{2, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {}, legacy()).b, (Dims{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {1, 1}, legacy()).b, (Dims{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {5}, legacy()).output, kA);
}

TEST(XnnpackLowering, LegacyRejectsWhatTheSpecRejects) {
    EXPECT_THROW(lower_shapes(kA, {3, 1}, legacy(1)), core::Error);  // 1s do not stretch
    EXPECT_THROW(lower_shapes(kA, {4, 5}, legacy(3)), core::Error);  // does not fit
}

TEST(XnnpackLowering, PdpdPlacesBAtTheAxisAfterDroppingTrailingOnes) {
    EXPECT_EQ(lower_shapes(kA, {3, 4}, pdpd(1)).b, (Dims{1, 3, 4, 1}));
    EXPECT_EQ(lower_shapes(kA, {3, 1}, pdpd(1)).b, (Dims{1, 3, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {4, 5}, pdpd(-1)).b, (Dims{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {1, 3}, pdpd(0)).b, (Dims{1, 3, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {4, 5, 1}, pdpd(2)).b, (Dims{1, 1, 4, 5}));
    EXPECT_EQ(lower_shapes(kA, {}, pdpd(-1)).b, (Dims{1, 1, 1, 1}));
    EXPECT_EQ(lower_shapes(kA, {5}, pdpd(3)).output, kA);
}

TEST(XnnpackLowering, PdpdRejectsWhatTheSpecRejects) {
    EXPECT_THROW(lower_shapes(kA, {4, 5, 1}, pdpd(-1)), core::Error);
    EXPECT_THROW(lower_shapes({8, 1, 6, 1}, {7, 1, 5}, pdpd(1)), core::Error);
}

}  // namespace
}  // namespace backends::adapters::xnnpack
