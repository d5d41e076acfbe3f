// NumPy .npy files: the format tensors are exchanged in with numpy, ONNX tooling and the CLI.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "core/tensor.hpp"

namespace validator {

// Reads an .npy file of format version 1.0, 2.0 or 3.0. Accepted descrs: |b1, |i1, <i2, <i4,
// <i8, |u1, <u2, <u4, <u8, <f2, <f4, <f8; '|' and '<' mean little-endian, '>' big-endian (the
// data is byte-swapped). Arrays saved in Fortran order are reordered to row-major.
// bf16 has no numpy dtype and is stored as raw '<u2' bits: with dtype == bf16 such a file is
// read as a bf16 tensor with those bits. Any other dtype that differs from the file's is an error.
// Boolean bytes other than 0 and 1 are rejected rather than silently changed.
// Throws core::Error(input) naming `path` and the problem.
// Whatever the header claims, nothing is allocated for the data before the file is known to hold
// exactly that many bytes.
//
// For a file another program wrote (a backend's output): the limits are checked on the opened
// file itself, so that swapping or growing the file after the caller looked at it gains nothing.
struct NpyReadLimits {
    std::uint64_t max_file_bytes = std::numeric_limits<std::uint64_t>::max();
    bool follow_symlinks = true;  // false: a symbolic link at `path` is refused, not followed
};
core::Tensor read_npy(const std::string& path, std::optional<core::ElementType> dtype,
                      const NpyReadLimits& limits = {});

// atomic: a temporary file renamed over `path` (write_file_atomically); in_place: `path`
// rewritten in place, reusing its storage (write_file_in_place), for scratch files.
enum class NpyWrite { atomic, in_place };

// Writes format version 1.0 (2.0 only if the header would not fit), row-major, little-endian;
// a bf16 tensor is written as '<u2'. NpyWrite::atomic (the default) replaces the file in one
// step, so a failed write leaves an existing file untouched. Throws core::Error(input) naming
// `path`.
void write_npy(const std::string& path, const core::Tensor& t, NpyWrite how = NpyWrite::atomic);

}  // namespace validator
