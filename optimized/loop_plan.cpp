#include "optimized/loop_plan.hpp"

#include <algorithm>

namespace optimized {
namespace {

bool mergeable(const LoopDim& outer, const LoopDim& inner) {
    return outer.a_stride == inner.a_stride * inner.extent &&
           outer.b_stride == inner.b_stride * inner.extent;
}

std::int64_t ceil_div(std::int64_t x, std::int64_t y) {
    return (x + y - 1) / y;
}

// Splits `extent` into equal-as-possible chunks of at most `limit` (limit >= 1).
std::int64_t balanced_rows(std::int64_t extent, std::int64_t limit) {
    const std::int64_t chunks = ceil_div(extent, limit);
    return ceil_div(extent, chunks);
}

// Chooses dims[tiled] and the chunk length. A long innermost dim is its own tile (cut into
// kTileElements pieces); a short one pulls outer dims into the tile until it holds about
// kTileElements outputs, so kernels never run on spans shorter than that.
void choose_tiling(TilePlan& p) {
    std::size_t t = p.dims.size() - 1;
    std::int64_t inner = 1;
    if (p.dims[t].extent < kShortSpan) {
        while (t > 0 && inner * p.dims[t].extent < kTileElements)
            inner *= p.dims[t--].extent;
    }
    const std::int64_t extent = p.dims[t].extent;
    const std::int64_t limit = kTileElements / inner > 1 ? kTileElements / inner : 1;
    p.tiled = t;
    p.row_elements = inner;
    p.rows = balanced_rows(extent, limit);
    p.chunks = ceil_div(extent, p.rows);
    p.tile_count = p.chunks;
    for (std::size_t d = 0; d < t; ++d)
        p.tile_count *= p.dims[d].extent;
}

}  // namespace

std::vector<LoopDim> coalesce(const core::BroadcastPlan& plan) {
    std::vector<LoopDim> dims;
    for (std::size_t d = 0; d < plan.output.size(); ++d) {
        if (plan.output[d] == 0) return {};
        if (plan.output[d] == 1) continue;
        const LoopDim next{plan.output[d], plan.a_strides[d], plan.b_strides[d]};
        if (!dims.empty() && mergeable(dims.back(), next)) {
            dims.back() = {dims.back().extent * next.extent, next.a_stride, next.b_stride};
        } else {
            dims.push_back(next);
        }
    }
    return dims;
}

TilePlan make_tile_plan(const core::BroadcastPlan& plan) {
    TilePlan p;
    p.element_count = core::element_count(plan.output);
    if (p.element_count == 0) return p;  // no dims, no tiles
    p.dims = coalesce(plan);
    if (p.dims.empty()) p.dims.push_back({1, 0, 0});  // a single element
    choose_tiling(p);
    return p;
}

TileStart tile_start(const TilePlan& p, std::int64_t tile) {
    const std::int64_t chunk = tile % p.chunks;
    const std::int64_t outer = tile / p.chunks;
    const LoopDim& cut = p.dims[p.tiled];
    const std::int64_t first_row = chunk * p.rows;
    TileStart s{(outer * cut.extent + first_row) * p.row_elements, first_row * cut.a_stride,
                first_row * cut.b_stride, std::min(p.rows, cut.extent - first_row)};
    std::int64_t rest = outer;
    for (std::size_t d = p.tiled; d-- > 0;) {
        const std::int64_t index = rest % p.dims[d].extent;
        rest /= p.dims[d].extent;
        s.a += index * p.dims[d].a_stride;
        s.b += index * p.dims[d].b_stride;
    }
    return s;
}

TileLayout tile_layout(const TilePlan& p, std::int64_t rows, std::int64_t LoopDim::*stride) {
    bool scalar = true;
    bool contiguous = true;
    std::int64_t step = 1;  // the stride a contiguous run would have along the current dim
    for (std::size_t d = p.dims.size(); d-- > p.tiled;) {
        const std::int64_t extent = d == p.tiled ? rows : p.dims[d].extent;
        if (extent == 1) continue;
        const std::int64_t s = p.dims[d].*stride;
        scalar = scalar && s == 0;
        contiguous = contiguous && s == step;
        step *= extent;
    }
    if (scalar) return TileLayout::scalar;
    return contiguous ? TileLayout::contiguous : TileLayout::gathered;
}

}  // namespace optimized
