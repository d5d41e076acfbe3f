#include "spec_cases/spec_case.hpp"

#include "spec_cases/case_builders.hpp"

namespace spec_cases {

std::vector<SpecCase> all_spec_cases() {
    std::vector<SpecCase> cases;
    for (auto build : {openvino_xml_cases, value_example_cases, onnx_testdata_cases,
                       broadcast_rule_cases, edge_value_cases})
        for (SpecCase& c : build())
            cases.push_back(std::move(c));
    return cases;
}

const char* name(Category c) {
    switch (c) {
        case Category::spec_value:
            return "spec-mandated value";
        case Category::wrap_convention:
            return "integer overflow (wrap convention)";
        case Category::rejects_invalid:
            return "rejects invalid input";
    }
    return "?";
}

}  // namespace spec_cases
