// The functions the exhaustive sources sweep: every (op version, type) the op-version table
// allows among the given types, and Divide-1 once per m_pythondiv value.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/op_config.hpp"
#include "core/op_table.hpp"

namespace case_sources {

struct ExhaustiveFunction {
    const core::OpVersion* op = nullptr;
    core::ElementType type = core::ElementType::u8;
    core::AttributeMap attributes;  // {m_pythondiv} for Divide-1, else empty
    std::string id;                 // "onnx.Mul-14:u8", "openvino.Divide-1:i16:floor"
};

// In table order: op version, then the given types' order, then floor before trunc.
std::vector<ExhaustiveFunction> exhaustive_functions(
    std::initializer_list<core::ElementType> types);

}  // namespace case_sources
