// Runs a tile plan: per tile, each input is used in place (one contiguous run or one scalar)
// or gathered into a small buffer, then one kernel covers the whole tile.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/op_output.hpp"
#include "optimized/kernels.hpp"
#include "optimized/loop_plan.hpp"

namespace optimized {

// Below this many outputs one thread runs everything: a parallel region costs more.
inline constexpr std::int64_t kParallelThreshold = 65536;

namespace tile_detail {

// A per-thread buffer holding one input's values for a tile gathered into it. Tiles with the
// same first offset and row count hold the same values (a broadcast input repeats).
template <class T>
struct GatherBuffer {
    std::unique_ptr<T[]> data;
    std::int64_t offset = -1;
    std::int64_t rows = 0;
};

// One input's gathered tiles, kept for reuse, the oldest replaced first. Its slots hold every
// distinct tile of the input when there are at most kGatherSlots (the spec's outer product
// (80,1,60,1)x(70,1,50): B's 70 tiles, each met again for every row of A), so that each is
// gathered once per thread; otherwise one slot, reused by consecutive tiles. 128 tiles of 4096
// f32 are 2 MiB, about a core's L2.
inline constexpr std::int64_t kGatherSlots = 128;

template <class T>
struct GatherCache {
    std::vector<GatherBuffer<T>> slots;
    std::size_t next = 0;  // the slot replaced next

    GatherBuffer<T>& slot_for(std::int64_t offset, std::int64_t rows, bool& hit) {
        for (GatherBuffer<T>& b : slots)
            if (b.offset == offset && b.rows == rows) return hit = true, b;
        hit = false;
        GatherBuffer<T>& b = slots[next];
        next = (next + 1) % slots.size();
        return b;
    }
};

// An upper bound on the distinct tiles of one input: the indices of the dims before the tiled
// one, and the chunks of the tiled one, along which the input moves.
inline std::int64_t distinct_tiles(const TilePlan& p, std::int64_t LoopDim::*stride) {
    std::int64_t n = p.dims[p.tiled].*stride != 0 ? p.chunks : 1;
    for (std::size_t d = 0; d < p.tiled; ++d)
        if (p.dims[d].*stride != 0) n *= p.dims[d].extent;
    return n;
}

// The slots an input's cache gets: all its distinct tiles when they fit, else one.
inline std::size_t gather_slots(const TilePlan& p, std::int64_t LoopDim::*stride) {
    const std::int64_t distinct = distinct_tiles(p, stride);
    return static_cast<std::size_t>(distinct <= kGatherSlots ? distinct : 1);
}

template <class T>
struct Operand {
    const T* data;
    bool scalar;
};

// Copies the tile's elements of one input, walking dims from `d` inward, into dst.
template <class T>
T* gather_dims(const TilePlan& p, std::size_t d, std::int64_t rows, std::int64_t LoopDim::*stride,
               const T* src, T* dst) {
    const std::int64_t extent = d == p.tiled ? rows : p.dims[d].extent;
    const std::int64_t step = p.dims[d].*stride;
    if (d + 1 == p.dims.size()) {
        // The innermost stride is 0 or 1 (see coalesce): a fill or a copy, both vectorized.
        if (step == 0) {
            std::fill_n(dst, extent, *src);
        } else if (step == 1) {
            std::copy_n(src, extent, dst);
        } else {
            for (std::int64_t i = 0; i < extent; ++i)
                dst[i] = src[i * step];
        }
        return dst + extent;
    }
    T* const first = dst;
    dst = gather_dims(p, d + 1, rows, stride, src, dst);
    if (step == 0) {  // broadcast along d: every index repeats the first block
        const std::int64_t block = dst - first;
        for (std::int64_t i = 1; i < extent; ++i, dst += block)
            std::copy_n(first, block, dst);
        return dst;
    }
    for (std::int64_t i = 1; i < extent; ++i)
        dst = gather_dims(p, d + 1, rows, stride, src + i * step, dst);
    return dst;
}

template <class T>
Operand<T> operand(const TilePlan& p, const TileStart& s, std::int64_t offset,
                   std::int64_t LoopDim::*stride, const T* base, GatherCache<T>& cache) {
    switch (tile_layout(p, s.rows, stride)) {
        case TileLayout::scalar:
            return {base + offset, true};
        case TileLayout::contiguous:
            return {base + offset, false};
        case TileLayout::gathered:
            break;
    }
    bool hit = false;
    GatherBuffer<T>& buffer = cache.slot_for(offset, s.rows, hit);
    if (!hit) {
        gather_dims(p, p.tiled, s.rows, stride, base + offset, buffer.data.get());
        buffer.offset = offset;
        buffer.rows = s.rows;
    }
    return {buffer.data.get(), false};
}

// Everything a worker needs besides its own range and scratch.
template <class T>
struct Job {
    const TilePlan& plan;
    const KernelTable<T>& table;
    Operation op;
    const T* a;
    const T* b;
    T* out;
    bool cached;  // every distinct tile of both inputs fits their gather caches
};

template <class T>
struct Scratch {
    GatherCache<T> a, b;
    std::vector<std::int64_t> undefined;  // flat indices, ascending
};

// Lists the zero divisors of one tile (the kernel said there is at least one).
template <class T>
void record_undefined(const Operand<T>& divisor, std::int64_t flat, std::int64_t n,
                      std::vector<std::int64_t>& undefined) {
    for (std::int64_t i = 0; i < n; ++i)
        if (divisor.scalar || divisor.data[i] == T(0)) undefined.push_back(flat + i);
}

// Innermost spans at least this long are computed row by row, in place, when an operand would
// otherwise be gathered: one kernel call per innermost row costs less than copying the tile's
// inputs into a buffer and reading them back (e.g. the outer product (80,1,60,1)x(70,1,50)).
inline constexpr std::int64_t kRowSpan = 32;

// Calls the kernel on every innermost row of the tile below dim d, in flat output order.
template <class T>
void run_rows(const Job<T>& job, Kernel<T> kernel, std::size_t d, std::int64_t rows, const T* a,
              const T* b, T*& out, std::int64_t& flat, Scratch<T>& scratch) {
    const TilePlan& p = job.plan;
    const LoopDim& dim = p.dims[d];
    const std::int64_t extent = d == p.tiled ? rows : dim.extent;
    if (d + 2 == p.dims.size()) {
        const LoopDim& inner = p.dims[d + 1];
        const std::int64_t span = inner.extent;
        for (std::int64_t i = 0; i < extent; ++i) {
            const T* y = b + i * dim.b_stride;
            if (kernel(a + i * dim.a_stride, y, out, span))
                record_undefined(Operand<T>{y, inner.b_stride == 0}, flat, span, scratch.undefined);
            out += span;
            flat += span;
        }
        return;
    }
    for (std::int64_t i = 0; i < extent; ++i)
        run_rows(job, kernel, d + 1, rows, a + i * dim.a_stride, b + i * dim.b_stride, out, flat,
                 scratch);
}

template <class T>
void run_tile(const Job<T>& job, std::int64_t tile, Scratch<T>& scratch) {
    const TileStart s = tile_start(job.plan, tile);
    const std::int64_t n = s.rows * job.plan.row_elements;
    const LoopDim& inner = job.plan.dims.back();
    if (!job.cached && job.plan.tiled + 1 < job.plan.dims.size() && inner.extent >= kRowSpan &&
        (inner.a_stride != 0 || inner.b_stride != 0) &&
        (tile_layout(job.plan, s.rows, &LoopDim::a_stride) == TileLayout::gathered ||
         tile_layout(job.plan, s.rows, &LoopDim::b_stride) == TileLayout::gathered)) {
        const Operands shape = inner.a_stride == 0   ? Operands::scalar_vector
                               : inner.b_stride == 0 ? Operands::vector_scalar
                                                     : Operands::vector_vector;
        T* out = job.out + s.flat;
        std::int64_t flat = s.flat;
        run_rows(job, job.table.get(job.op, shape), job.plan.tiled, s.rows, job.a + s.a,
                 job.b + s.b, out, flat, scratch);
        return;
    }
    const Operand<T> x = operand(job.plan, s, s.a, &LoopDim::a_stride, job.a, scratch.a);
    const Operand<T> y = operand(job.plan, s, s.b, &LoopDim::b_stride, job.b, scratch.b);
    T* out = job.out + s.flat;
    bool undefined;
    if (x.scalar && y.scalar) {  // one value for the whole tile
        undefined = job.table.get(job.op, Operands::vector_scalar)(x.data, y.data, out, 1);
        std::fill(out + 1, out + n, out[0]);
    } else {
        const Operands shape = x.scalar   ? Operands::scalar_vector
                               : y.scalar ? Operands::vector_scalar
                                          : Operands::vector_vector;
        undefined = job.table.get(job.op, shape)(x.data, y.data, out, n);
    }
    if (undefined) record_undefined(y, s.flat, n, scratch.undefined);
}

// Tiles [first, last) of the worker `index` out of `count`: equal contiguous shares in order.
inline std::pair<std::int64_t, std::int64_t> share(std::int64_t tiles, int index, int count) {
    const std::int64_t base = tiles / count, extra = tiles % count;
    const std::int64_t first = base * index + std::min<std::int64_t>(index, extra);
    return {first, first + base + (index < extra ? 1 : 0)};
}

// Whether both inputs' distinct tiles fit their caches (then no tile is computed row by row).
inline bool fits_gather_caches(const TilePlan& plan) {
    if (plan.tiled + 1 == plan.dims.size()) return false;  // one-dim tiles never gather
    return distinct_tiles(plan, &LoopDim::a_stride) <= kGatherSlots &&
           distinct_tiles(plan, &LoopDim::b_stride) <= kGatherSlots;
}

template <class T>
std::vector<Scratch<T>> make_scratch(const TilePlan& plan, int workers) {
    std::vector<Scratch<T>> scratch(static_cast<std::size_t>(workers));
    if (plan.tiled + 1 == plan.dims.size()) return scratch;  // one-dim tiles never gather
    const std::size_t a_slots = gather_slots(plan, &LoopDim::a_stride);
    const std::size_t b_slots = gather_slots(plan, &LoopDim::b_stride);
    for (auto& s : scratch) {
        s.a.slots.resize(a_slots);
        s.b.slots.resize(b_slots);
        for (auto& slot : s.a.slots)
            slot.data = std::make_unique_for_overwrite<T[]>(kTileElements);
        for (auto& slot : s.b.slots)
            slot.data = std::make_unique_for_overwrite<T[]>(kTileElements);
    }
    return scratch;
}

}  // namespace tile_detail

// Evaluates one call into `out` (the output's element count; every element is overwritten): A op
// B over the plan, with up to `threads` OpenMP threads. `undefined` gets the flat indices of the
// undefined elements, ascending; like the output, it does not depend on the thread count.
template <class T>
void execute(const core::BroadcastPlan& broadcast, Operation op, const T* a, const T* b, T* out,
             int threads, Isa isa, std::vector<std::int64_t>& undefined) {
    using namespace tile_detail;
    undefined.clear();
    const TilePlan plan = make_tile_plan(broadcast);
    if (plan.tile_count == 0) return;
    const Job<T> job{plan, kernels_for<T>(isa), op, a, b, out, fits_gather_caches(plan)};
    const std::int64_t wanted = plan.element_count < kParallelThreshold ? 1 : threads;
    const int workers = static_cast<int>(std::clamp<std::int64_t>(wanted, 1, plan.tile_count));
    std::vector<Scratch<T>> scratch = make_scratch<T>(plan, workers);
#pragma omp parallel num_threads(workers)
    {
        // The runtime may grant fewer threads than asked; shares follow the actual team.
        const int index = omp_get_thread_num(), count = omp_get_num_threads();
        const auto [first, last] = share(plan.tile_count, index, count);
        for (std::int64_t t = first; t < last; ++t)
            run_tile(job, t, scratch[static_cast<std::size_t>(index)]);
    }
    for (const auto& s : scratch)
        undefined.insert(undefined.end(), s.undefined.begin(), s.undefined.end());
}

}  // namespace optimized
