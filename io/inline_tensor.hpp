// Tensors given on the command line: inline text such as "f32:2x2:1,2,3,4", or an .npy path.
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.hpp"

namespace io {

// Parses "[DTYPE:]SHAPE:VALUES".
//   DTYPE  any name core::parse_element_type accepts; without it `default_dtype` is used. Giving
//          both is allowed only if they name the same type.
//   SHAPE  dims joined by 'x' ("2x3", "7", "0x4"); empty for a rank-0 scalar ("f32::1.5").
//   VALUES comma-separated, optionally inside [ ], spaces allowed, each spelled as
//          core::parse_element accepts ("nan", "-0", "0x1p-24", "max", ...); row-major order.
//          A single value fills the whole tensor ("i32:2x2:7"), of at most kMaxFilledElements
//          elements; otherwise the count must match.
// Values not exactly representable in DTYPE are rounded to nearest even, as core::parse_element
// does. Throws core::Error(input) quoting `text` and saying what is wrong.
inline constexpr std::int64_t kMaxFilledElements = std::int64_t{1} << 26;  // 512 MiB of f64

core::Tensor parse_inline_tensor(std::string_view text,
                                 std::optional<core::ElementType> default_dtype);

// An argument ending in ".npy" is read with read_npy(argument, dtype); anything else is parsed
// with parse_inline_tensor(argument, dtype).
core::Tensor load_input(std::string_view argument, std::optional<core::ElementType> dtype);

}  // namespace io
