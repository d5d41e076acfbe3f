// The optimized implementation: same contract and bit-identical results as reference::run,
// with coalesced broadcasting, vectorized kernels and OpenMP threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"

namespace optimized {

// Runs one op version on A and B with thread_count() threads. Throws core::Error exactly where
// reference::run does (validation is core::prepare_call), and core::Error(input) when a
// tensor's byte size does not match its shape.
core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b);

// The same for the call core::prepare_call made of these inputs.
core::OpOutput run_prepared(const core::PreparedCall& call, const core::Tensor& a,
                            const core::Tensor& b);

// The same with an explicit thread count (n < 1 means thread_count()).
core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b, int threads);

// The same into a caller's output, reused when it already has the result's type, shape and
// storage (no allocation: what a throughput benchmark wants); else replaced. Never zero-filled
// first: every element is written.
void run_into(const core::OpVersion& op, const core::AttributeMap& attributes,
              const core::Tensor& a, const core::Tensor& b, core::OpOutput& out, int threads = 0);

// The same for a prepared call (core::prepare_call) on tensors the caller owns: a plugin's
// inputs where the host mapped them, the output straight into the host's buffer. `out` holds
// the output's element count of the call's type, aligned to the element; every element is
// written. Returns the flat indices of the undefined elements, ascending. Throws core::Error
// when an input's byte size does not match its shape.
std::vector<std::int64_t> run_to(const core::PreparedCall& call, const core::TensorView& a,
                                 const core::TensorView& b, std::span<std::byte> out,
                                 int threads = 0);

// Threads used by run() without a count; n < 1 restores the default, omp_get_max_threads().
// Outputs below 64K elements always run on one thread.
void set_thread_count(int n);
int thread_count();

}  // namespace optimized
