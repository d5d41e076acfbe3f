// A case of `eltwise-validate run`: a stable id, and how to build its record (core/case_record.hpp)
// when it is run.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/case_record.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/tensor.hpp"

namespace case_sources {

struct PlannedCase {
    std::string id;      // replayable with `run --case ID`
    std::string source;  // a name of case_sources.hpp's source_names()
    const core::OpVersion* op = nullptr;
    core::ElementType dtype = core::ElementType::f32;  // A's type
    bool valid = true;
    // Deterministic; may throw core::Error. The record's id and graph form are the plan's.
    std::function<core::CaseRecord()> build;
    std::string graph_form = "runtime";  // the id starts with "<form>/" for any other form
};

}  // namespace case_sources
