// Reading the '|'-separated case tables in spec_cases/data/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace spec_cases {

struct TableRow {
    std::string where;  // "file:line", for messages
    std::vector<std::string> fields;
};

// Rows of a table with exactly `fields` fields each; '#' comments and blank lines are skipped.
std::vector<TableRow> read_table(std::string_view path, std::size_t fields);

// "2x3x4" -> (2,3,4); "()" or "" -> rank 0.
core::Shape parse_shape(std::string_view text);

// "k=v k2=v2" -> {k: v, k2: v2}.
core::AttributeMap parse_attributes(std::string_view text);

// "SHAPE:V1,V2,..." -> a tensor of `type`; every value must be exactly representable.
core::Tensor parse_shaped_values(core::ElementType type, std::string_view text);

std::string_view trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char separator);

// Throws core::Error(input) prefixed with the row's location.
[[noreturn]] void fail(const TableRow& row, const std::string& message);

}  // namespace spec_cases
