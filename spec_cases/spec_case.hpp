// A spec case: a named example from the specs, made of checks that run one op version each.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/case_record.hpp"
#include "core/error.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace spec_cases {

// Conformance categories, reported apart (docs/SEMANTICS.md sections 2 and 4).
enum class Category { spec_value, wrap_convention, rejects_invalid };
const char* name(Category c);

struct SpecCase {
    std::string name;    // "openvino.Divide-1.example2_numpy_trunc"
    std::string source;  // where the example comes from
    Category category = Category::spec_value;
    // Its checks, built on demand: a case whose data is missing fails alone, with the reason.
    // Each check's id is its label ("openvino.Divide-1 i32 m_pythondiv=false"); `valid` is false
    // exactly when it expects an error.
    std::function<std::vector<core::CaseRecord>()> checks;
};

// Every spec case, in a stable order. Names are unique.
std::vector<SpecCase> all_spec_cases();

}  // namespace spec_cases
