// The <layer> examples of the OpenVINO Multiply-1 and Divide-1 specs, embedded XML files parsed
// as layers (spec_cases/openvino_layer_checks.hpp).
#include "io/openvino_layer_xml.hpp"
#include "spec_cases/case_builders.hpp"
#include "spec_cases/embedded_data.hpp"
#include "spec_cases/openvino_layer_checks.hpp"

namespace spec_cases {

std::vector<SpecCase> openvino_xml_cases() {
    std::vector<SpecCase> cases;
    for (const EmbeddedFile& f : embedded_files()) {
        if (!f.path.starts_with("openvino/") || !f.path.ends_with(".xml")) continue;
        const std::string stem(f.path.substr(9, f.path.size() - 9 - 4));
        const std::string path(f.path);
        cases.push_back(
            {"openvino." + stem, "OpenVINO opset1 spec <layer> example (" + path + ")",
             Category::spec_value,
             [path] { return layer_checks(io::parse_openvino_layer(embedded_file(path), path)); }});
    }
    return cases;
}

}  // namespace spec_cases
