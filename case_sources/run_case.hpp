// A case of `eltwise-validate run`: a stable id, and how to build its inputs when it is run.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/tensor.hpp"

namespace case_sources {

// The inputs of one call and what the spec says about it.
struct CaseData {
    core::AttributeMap attributes;
    core::Tensor a, b;
    bool valid = true;  // whether the spec accepts the inputs (invalid: a rejection is right)
    // An expectation written down by hand or shipped with the case (spec examples, ONNX test
    // data); the reference computes it when absent.
    std::optional<core::OpOutput> expected;
    std::string note;  // e.g. a finding about shipped test data
    // How the backend's graph gets the inputs (backends/protocol.hpp kGraphForms).
    std::string graph_form = "runtime";
};

struct PlannedCase {
    std::string id;      // replayable with `run --case ID`
    std::string source;  // a name of case_sources.hpp's source_names()
    const core::OpVersion* op = nullptr;
    core::ElementType dtype = core::ElementType::f32;  // A's type
    bool valid = true;
    std::function<CaseData()> build;     // deterministic; may throw core::Error
    std::string graph_form = "runtime";  // the id starts with "<form>/" for any other form
};

}  // namespace case_sources
