// oneDNN's part of the converter lowering: one rank for src0, src1 and dst, rank 0 -> [1].
// Expected shapes are spec examples (docs/SEMANTICS.md section 3) lowered by hand to oneDNN's
// rule (a source's size-1 dims broadcast to dst's). The shared part:
// converter_lowering_test.cpp.
#include "backends/adapters/onednn/lowering.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "core/error.hpp"

namespace backends::adapters::onednn {
namespace {

using core::Shape;

core::BroadcastSpec numpy() {
    return {core::BroadcastRule::numpy, std::nullopt};
}
core::BroadcastSpec none() {
    return {core::BroadcastRule::none, std::nullopt};
}
core::BroadcastSpec pdpd(std::int64_t axis) {
    return {core::BroadcastRule::pdpd, axis};
}
core::BroadcastSpec legacy(std::optional<std::int64_t> axis) {
    return {core::BroadcastRule::onnx_legacy, axis};
}

void expect_lowered(const core::BroadcastSpec& spec, const Shape& a, const Shape& b,
                    const Shape& src0, const Shape& src1, const Shape& dst, const Shape& output) {
    const Lowered l = lower(spec, a, b);
    const std::string shapes = core::to_string(a) + " " + core::to_string(b);
    EXPECT_EQ(l.src0, src0) << shapes;
    EXPECT_EQ(l.src1, src1) << shapes;
    EXPECT_EQ(l.dst, dst) << shapes;
    EXPECT_EQ(l.output, output) << shapes;
}

TEST(OnednnLowering, NumpyPrependsOnesAndBroadcastsEither) {
    const auto numpy_case = [](const Shape& a, const Shape& b, const Shape& src0, const Shape& src1,
                               const Shape& dst) {
        expect_lowered(numpy(), a, b, src0, src1, dst, dst);
    };
    numpy_case({2, 4, 5}, {1, 4, 5}, {2, 4, 5}, {1, 4, 5}, {2, 4, 5});
    numpy_case({6, 5}, {5}, {6, 5}, {1, 5}, {6, 5});
    numpy_case({2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3});
    numpy_case({0, 3}, {1, 3}, {0, 3}, {1, 3}, {0, 3});
    numpy_case({2, 1, 5}, {1, 4, 5}, {2, 1, 5}, {1, 4, 5}, {2, 4, 5});
    numpy_case({6, 5}, {2, 1, 5}, {1, 6, 5}, {2, 1, 5}, {2, 6, 5});
    numpy_case({1, 5, 3}, {5, 2, 1, 3}, {1, 1, 5, 3}, {5, 2, 1, 3}, {5, 2, 5, 3});
    numpy_case({8, 1, 6, 1}, {7, 1, 5}, {8, 1, 6, 1}, {1, 7, 1, 5}, {8, 7, 6, 5});
    numpy_case({1, 3}, {0, 3}, {1, 3}, {0, 3}, {0, 3});
}

TEST(OnednnLowering, RankZeroBecomesOneElementOfRankOne) {
    expect_lowered(numpy(), {}, {}, {1}, {1}, {1}, {});
    expect_lowered(numpy(), {}, {4}, {1}, {4}, {4}, {4});
    expect_lowered(none(), {}, {}, {1}, {1}, {1}, {});
    expect_lowered(pdpd(-1), {}, {}, {1}, {1}, {1}, {});
    expect_lowered(legacy(std::nullopt), {}, {}, {1}, {1}, {1}, {});
}

TEST(OnednnLowering, NumpyLeavesIncompatibleDimsToOnednn) {
    // dst takes A's dim where neither is 1, a shape oneDNN refuses.
    expect_lowered(numpy(), {3}, {2}, {3}, {2}, {3}, {3});
    expect_lowered(numpy(), {3, 1, 5}, {4, 4, 5}, {3, 1, 5}, {4, 4, 5}, {3, 4, 5}, {3, 4, 5});
}

TEST(OnednnLowering, BIntoARankKeepsAAsDst) {
    const Shape a = {2, 3, 4, 5};
    expect_lowered(none(), {256, 56}, {256, 56}, {256, 56}, {256, 56}, {256, 56}, {256, 56});
    expect_lowered(pdpd(1), a, {3, 1}, a, {1, 3, 1, 1}, a, a);
    expect_lowered(legacy(std::nullopt), a, {4, 5}, a, {1, 1, 4, 5}, a, a);
    expect_lowered(legacy(0), {1, 3}, {1}, {1, 3}, {1, 1}, {1, 3}, {1, 3});
}

TEST(OnednnLowering, ConverterRejectionsAreCoreErrors) {
    EXPECT_THROW(lower(none(), {2, 3}, {1, 3}), core::Error);
    EXPECT_THROW(lower(pdpd(-1), {2, 3, 4, 5}, {4, 5, 1}), core::Error);
    EXPECT_THROW(lower(legacy(1), {2, 3, 4, 5}, {3, 1}), core::Error);
}

}  // namespace
}  // namespace backends::adapters::onednn
