// The broadcast plan reshaped for fast execution: coalesced dims and tiles of contiguous work.
#pragma once

#include <cstdint>
#include <vector>

#include "core/broadcast.hpp"

namespace optimized {

// One loop dim: its extent and the element strides of A and B along it (0 where broadcast).
struct LoopDim {
    std::int64_t extent;
    std::int64_t a_stride;
    std::int64_t b_stride;
    friend bool operator==(const LoopDim&, const LoopDim&) = default;
};

// Drops size-1 dims and merges neighbours i (outer), i+1 (inner) whenever both inputs step
// across the pair as across one dim: stride[i] == stride[i+1] * extent[i+1]. That covers an
// input contiguous across the pair and one broadcast across it (0 == 0 * n). Outermost first;
// the innermost stride of each input is then 0 or 1. An empty output gives no dims.
std::vector<LoopDim> coalesce(const core::BroadcastPlan& plan);

// The output is cut into tiles: dims [0, tiled) are walked one index at a time, dim `tiled` is
// cut into chunks of `rows` indices, dims after it lie wholly inside every tile. Tiles are
// numbered in flat output order, so a tile's outputs are one contiguous run of flat indices.
struct TilePlan {
    std::vector<LoopDim> dims;
    std::size_t tiled = 0;          // index into dims
    std::int64_t rows = 1;          // chunk length along dims[tiled]
    std::int64_t row_elements = 1;  // product of the extents after dims[tiled]
    std::int64_t chunks = 1;        // ceil(dims[tiled].extent / rows)
    std::int64_t tile_count = 0;    // chunks times the extents before dims[tiled]
    std::int64_t element_count = 0;
};

// Where one tile starts and how many rows of dims[tiled] it holds.
struct TileStart {
    std::int64_t flat;  // first output index
    std::int64_t a;     // offset of its first A element
    std::int64_t b;     // offset of its first B element
    std::int64_t rows;  // rows in this tile (the last chunk may be shorter)
};

// Below this innermost extent a tile spans several dims so that kernels run on long spans.
inline constexpr std::int64_t kShortSpan = 128;
// Elements per tile: long enough to amortize per-tile work, small enough that a tile's
// gathered inputs and its output stay in L1/L2.
inline constexpr std::int64_t kTileElements = 4096;

TilePlan make_tile_plan(const core::BroadcastPlan& plan);
TileStart tile_start(const TilePlan& plan, std::int64_t tile);

// How an input looks across one tile: a single repeated value, one contiguous run, or neither
// (its values must then be gathered into a contiguous buffer).
// `stride` picks the input: &LoopDim::a_stride or &LoopDim::b_stride.
enum class TileLayout { scalar, contiguous, gathered };
TileLayout tile_layout(const TilePlan& plan, std::int64_t rows, std::int64_t LoopDim::*stride);

}  // namespace optimized
