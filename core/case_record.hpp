// One case: a call of an op version on two inputs, and what the spec says it gives. The record
// of every case source (spec examples, edge tables, ONNX test data, random, invalid, exhaustive)
// and of the property generators (generators::Case adds how it was generated).
#pragma once

#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/tensor.hpp"

namespace core {

// What a case expects when it carries an expectation: exact output values (with the elements the
// spec leaves undefined), only an output shape, or a rejection with an error of one kind. With
// none, the reference computes the output.
struct CaseExpectation {
    std::optional<OpOutput> output;
    std::optional<Shape> shape;
    std::optional<ErrorKind> error;
};

struct CaseRecord {
    // Every member has an initializer: designated initializers name only what they set.
    std::string id{};  // "openvino.Divide-1 i32 m_pythondiv=false", "random:onnx.Mul-14:u8:...:3"
    const OpVersion* op = nullptr;
    AttributeMap attributes{};
    Tensor a{}, b{};
    bool valid = true;  // whether the spec accepts the inputs (invalid: a rejection is right)
    CaseExpectation expected{};
    std::string note{};  // e.g. a finding about shipped test data
    // How the backend's graph gets the inputs (backends/protocol.hpp kGraphForms).
    std::string graph_form = "runtime";
};

}  // namespace core
