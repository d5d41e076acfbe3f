// One row of the throughput benchmark, as listed in bench/rows.json (shared with the peers).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/element_type.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"

namespace bench {

// How the Eigen and oneDNN peers see the broadcast, so that they can use their own idioms.
enum class Layout {
    same,    // A, B, C flat and equally long
    scalar,  // B holds one element
    row,     // C[o,i] = A[o,i] op B[i]
    col,     // C[n,o,i] = A[n,o,i] op B[o]
    outer,   // A (I,1,K,1), B (J,1,L): C[i,j,k,l] = A[i,k] op B[j,l]
};

enum class Rounding { none, floor, trunc };

// rows.json's integer_inputs for the row's type: closed ranges [lo, hi].
struct IntegerInputs {
    std::int64_t multiply[2] = {0, 0};  // both operands of a multiply row
    std::int64_t dividend[2] = {0, 0};  // A of a divide row
    std::int64_t divisor[2] = {1, 1};   // B's magnitude; a signed type's sign is random
};

struct Row {
    std::string id;
    core::Arithmetic arithmetic = core::Arithmetic::multiply;
    core::ElementType type = core::ElementType::f32;
    core::Shape a, b;              // full run
    core::Shape smoke_a, smoke_b;  // --smoke
    Layout layout = Layout::same;
    Rounding rounding = Rounding::none;
    std::string broadcast = "numpy";  // OpenVINO auto_broadcast
    std::int64_t axis = -1;           // OpenVINO auto_broadcast_axis (pdpd)
    std::string note;
    IntegerInputs inputs;  // integer types only

    // openvino.Multiply-1 or openvino.Divide-1: they allow every dtype and rule.
    const core::OpVersion& op() const;
    core::AttributeMap attributes() const;
};

// Reads rows.json; throws std::runtime_error naming the file and the bad entry.
std::vector<Row> load_rows(const std::filesystem::path& path);

}  // namespace bench
