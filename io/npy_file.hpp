// NumPy .npy files: the format tensors are exchanged in with numpy, ONNX tooling and the CLI.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "core/tensor.hpp"

namespace io {

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

// The preamble and header dict of an .npy file, as read_npy checks them.
struct NpyHeader {
    std::string descr;                                // as written: "<f4", "|u1"
    core::ElementType type = core::ElementType::f32;  // of the descr (u16 for bf16 bits)
    bool big_endian = false;
    bool fortran_order = false;
    core::Shape shape;
    std::uint64_t data_offset = 0;  // where the elements start
};
// What an .npy file holds, from its header alone: read_npy's checks of the header and of its type,
// and the header's data size against the bytes really in the (opened) file, without reading the
// data. For a file too large to read: its header may still say what it is. Throws as read_npy.
struct NpyLayout {
    NpyHeader header;
    core::ElementType type = core::ElementType::f32;  // as read_npy would read it
    std::uint64_t file_bytes = 0;
};
NpyLayout read_npy_layout(const std::string& path, std::optional<core::ElementType> dtype,
                          const NpyReadLimits& limits = {});

// Parses the header at the start of `file` (the whole file, or at least its header), with the
// checks and messages of read_npy. Throws core::Error(input) naming `path`.
NpyHeader parse_npy_header(std::span<const std::byte> file, const std::string& path);
// The tensor type a header holds when `dtype` is asked for: its own, or bf16 for '<u2' bits.
// Throws core::Error(input) naming `path` when they differ otherwise.
core::ElementType npy_element_type(const NpyHeader& header, std::optional<core::ElementType> dtype,
                                   const std::string& path);
// Checks that exactly `available` data bytes hold the header's shape of `type` elements, before
// anything is allocated for them. Throws core::Error(input) naming `path`.
void check_npy_data_size(const NpyHeader& header, core::ElementType type, std::uint64_t available,
                         const std::string& path);

// The .npy at the start of `region` (shared memory a backend wrote its output into, PROTOCOL.md
// section 9 item 17), viewed in place: read_npy's header checks, and the data must be
// little-endian, in C order, aligned to its elements and inside the region (which may go on
// after it). Throws core::Error(input) naming `path`.
core::TensorView view_npy(std::span<const std::byte> region, std::optional<core::ElementType> dtype,
                          const std::string& path);

// Magic, version, header length and dict of a C-order little-endian file, padded with spaces
// and '\n' to a multiple of 64 bytes as numpy writes it (which aligns the data for any type).
std::string npy_preamble(core::ElementType t, const core::Shape& shape);

// atomic: a temporary file renamed over `path` (write_file_atomically); in_place: `path`
// rewritten in place, reusing its storage (write_file_in_place), for scratch files.
enum class NpyWrite { atomic, in_place };

// Writes format version 1.0 (2.0 only if the header would not fit), row-major, little-endian;
// a bf16 tensor is written as '<u2'. NpyWrite::atomic (the default) replaces the file in one
// step, so a failed write leaves an existing file untouched. Throws core::Error(input) naming
// `path`.
void write_npy(const std::string& path, const core::Tensor& t, NpyWrite how = NpyWrite::atomic);

}  // namespace io
