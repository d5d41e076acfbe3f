// Results as JSON: tensors with their exact bits, and files written in one step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tensor.hpp"

namespace io {

// {"dtype": "f32", "shape": [2, 2], "values": [...], "undefined": [...], "bits": [...]}
//   values     row-major. Booleans as true/false, integers as JSON integers (exact for i64 and
//              u64). Floats as JSON numbers when finite and not -0; otherwise the strings "nan",
//              "-nan", "inf", "-inf", "-0", so that no special is lost or ambiguous.
//   undefined  the flat indices of elements whose value the spec leaves undefined, sorted and
//              without duplicates; their entries in "values" and "bits" are null.
//   bits       float dtypes only: the raw encoding as "0x" + fixed-width lowercase hex
//              (4 digits for f16/bf16, 8 for f32, 16 for f64).
// Throws std::out_of_range if an index in `undefined` is not an element of t.
nlohmann::json tensor_to_json(const core::Tensor& t, const std::vector<std::int64_t>& undefined);

// Replaces `path` with `contents` atomically (temporary file + rename); a failed write leaves an
// existing file untouched. Throws core::Error(input) naming `path`.
void write_text_file(const std::string& path, const std::string& contents);

}  // namespace io
