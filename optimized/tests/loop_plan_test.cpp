// Coalescing and tiling of broadcast plans.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/broadcast.hpp"
#include "optimized/loop_plan.hpp"

namespace {

using core::BroadcastRule;
using optimized::LoopDim;

core::BroadcastPlan numpy(const core::Shape& a, const core::Shape& b) {
    return core::make_plan(a, b, {BroadcastRule::numpy, std::nullopt});
}

TEST(Coalesce, SameShapesBecomeOneDim) {
    const auto dims = optimized::coalesce(numpy({2, 3, 4}, {2, 3, 4}));
    EXPECT_EQ(dims, (std::vector<LoopDim>{{24, 1, 1}}));
}

TEST(Coalesce, RowBroadcastMergesTheOuterDims) {
    const auto dims = optimized::coalesce(numpy({2, 3, 4}, {4}));
    EXPECT_EQ(dims, (std::vector<LoopDim>{{6, 4, 0}, {4, 1, 1}}));
}

TEST(Coalesce, SizeOneDimsAreDroppedAndBroadcastRunsMerge) {
    // (8,1,6,1) x (7,1,5): no two neighbours share a state, so four dims stay.
    const auto dims = optimized::coalesce(numpy({8, 1, 6, 1}, {7, 1, 5}));
    EXPECT_EQ(dims, (std::vector<LoopDim>{{8, 6, 0}, {7, 0, 5}, {6, 1, 0}, {5, 0, 1}}));
    // B broadcast across both inner dims: they merge.
    EXPECT_EQ(optimized::coalesce(numpy({3, 4, 5}, {3, 1, 1})),
              (std::vector<LoopDim>{{3, 20, 1}, {20, 1, 0}}));
}

TEST(Coalesce, EmptyOutputHasNoDims) {
    EXPECT_TRUE(optimized::coalesce(numpy({0, 3}, {1, 3})).empty());
}

// Tiles cover the output exactly once, in flat order, and stay within the gather buffers.
void expect_tiles_cover(const core::BroadcastPlan& broadcast) {
    const auto plan = optimized::make_tile_plan(broadcast);
    std::int64_t next = 0;
    for (std::int64_t t = 0; t < plan.tile_count; ++t) {
        const auto s = optimized::tile_start(plan, t);
        const std::int64_t n = s.rows * plan.row_elements;
        EXPECT_EQ(s.flat, next);
        EXPECT_GE(n, 1);
        if (plan.tiled + 1 < plan.dims.size()) {
            EXPECT_LE(n, optimized::kTileElements);
        }
        next += n;
    }
    EXPECT_EQ(next, plan.element_count);
}

TEST(TilePlan, TilesCoverTheOutput) {
    expect_tiles_cover(numpy({8, 1, 6, 1}, {7, 1, 5}));
    expect_tiles_cover(numpy({40, 1, 300, 1}, {5, 1, 5}));
    expect_tiles_cover(numpy({100003}, {100003}));
    expect_tiles_cover(numpy({7, 1}, {1, 9}));
    expect_tiles_cover(numpy({}, {}));
    expect_tiles_cover(numpy({0, 5}, {5}));
}

TEST(TilePlan, ShortInnerSpansAreGroupedIntoLongTiles) {
    const auto plan = optimized::make_tile_plan(numpy({64, 1, 160, 1}, {32, 1, 5}));
    const auto first = optimized::tile_start(plan, 0);
    EXPECT_GE(first.rows * plan.row_elements, optimized::kTileElements / 2);
    EXPECT_EQ(optimized::tile_layout(plan, first.rows, &LoopDim::a_stride),
              optimized::TileLayout::gathered);
}

TEST(TilePlan, LongInnerSpansAreUsedInPlace) {
    const auto plan = optimized::make_tile_plan(numpy({3, 500}, {3, 1}));
    const auto first = optimized::tile_start(plan, 0);
    EXPECT_EQ(optimized::tile_layout(plan, first.rows, &LoopDim::a_stride),
              optimized::TileLayout::contiguous);
    EXPECT_EQ(optimized::tile_layout(plan, first.rows, &LoopDim::b_stride),
              optimized::TileLayout::scalar);
}

}  // namespace
