// What the C++ peers (Eigen, oneDNN) share: the call they are prepared for, and the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "bench/bench_row.hpp"
#include "core/tensor.hpp"

namespace bench {

// A row's broadcast in the terms of its Layout (see bench_row.hpp).
struct LayoutDims {
    std::int64_t batch = 1, outer = 1, inner = 1;  // same/scalar: inner = |A|
    std::int64_t i = 1, j = 1, k = 1, l = 1;       // outer: A (i,1,k,1), B (j,1,l)
};
// Throws std::runtime_error when the shapes do not fit the row's layout.
LayoutDims layout_dims(Layout layout, const core::Shape& a, const core::Shape& b);

// One row's inputs and the preallocated output buffer a peer writes (output-shaped, dense).
struct PeerCall {
    const Row& row;
    const core::Tensor& a;
    const core::Tensor& b;
    LayoutDims dims;
    std::byte* out;
};

// A peer set up for one row: `run` to time, or why the peer cannot run the row.
struct PreparedPeer {
    std::function<void()> run;   // empty: not available for this row
    std::string reason;          // when `run` is empty
    std::string note;            // what exactly runs (e.g. oneDNN's implementation name)
    bool same_semantics = true;  // false: it computes a different function (excluded as a peer)
};

PreparedPeer prepare_eigen(const PeerCall& call);
PreparedPeer prepare_onednn(const PeerCall& call);

// Library versions, or empty when the bench was built without the peer.
std::string eigen_version();
std::string onednn_version();

}  // namespace bench
