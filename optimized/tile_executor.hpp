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

// A per-thread buffer holding one input's values for the most recent tile gathered into it.
// Tiles with the same first offset and row count hold the same values (a broadcast input
// repeats), so consecutive tiles often reuse it without gathering again.
template <class T>
struct GatherBuffer {
    std::unique_ptr<T[]> data;
    std::int64_t offset = -1;
    std::int64_t rows = 0;
};

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
                   std::int64_t LoopDim::*stride, const T* base, GatherBuffer<T>& buffer) {
    switch (tile_layout(p, s.rows, stride)) {
        case TileLayout::scalar:
            return {base + offset, true};
        case TileLayout::contiguous:
            return {base + offset, false};
        case TileLayout::gathered:
            break;
    }
    if (buffer.offset != offset || buffer.rows != s.rows) {
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
};

template <class T>
struct Scratch {
    GatherBuffer<T> a, b;
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
    if (job.plan.tiled + 1 < job.plan.dims.size() && inner.extent >= kRowSpan &&
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

template <class T>
std::vector<Scratch<T>> make_scratch(const TilePlan& plan, int workers) {
    std::vector<Scratch<T>> scratch(static_cast<std::size_t>(workers));
    if (plan.tiled + 1 == plan.dims.size()) return scratch;  // one-dim tiles never gather
    for (auto& s : scratch) {
        s.a.data = std::make_unique_for_overwrite<T[]>(kTileElements);
        s.b.data = std::make_unique_for_overwrite<T[]>(kTileElements);
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
    const Job<T> job{plan, kernels_for<T>(isa), op, a, b, out};
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
