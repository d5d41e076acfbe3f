// A spec case: a named example from the specs, made of checks that run one op version each.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace spec_cases {

// What a check expects: exact output values (with the elements the spec leaves undefined),
// only an output shape, or a rejection with an error of one kind.
struct Expected {
    std::optional<core::OpOutput> output;
    std::optional<core::Shape> shape;
    std::optional<core::ErrorKind> error;
};

struct Check {
    std::string label;  // e.g. "openvino.Divide-1 i32 m_pythondiv=false"
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    core::Tensor a;
    core::Tensor b;
    Expected expected;
};

// Conformance categories, reported apart (docs/SEMANTICS.md sections 2 and 4).
enum class Category { spec_value, wrap_convention, rejects_invalid };
const char* name(Category c);

struct SpecCase {
    std::string name;    // "openvino.Divide-1.example2_numpy_trunc"
    std::string source;  // where the example comes from
    Category category = Category::spec_value;
    // Built on demand: a case whose data is missing fails alone, with the reason.
    std::function<std::vector<Check>()> checks;
};

// Every spec case, in a stable order. Names are unique.
std::vector<SpecCase> all_spec_cases();

}  // namespace spec_cases
