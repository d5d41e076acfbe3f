// OpenVINO IR <layer> XML: parsed, then turned into checks with the spec's expected outputs.
#include "core/error.hpp"
#include "spec_cases/openvino_layer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view xml(reinterpret_cast<const char*>(data), size);
    try {
        spec_cases::layer_checks(spec_cases::parse_openvino_layer(xml, "fuzz input"));
    } catch (const core::Error&) {
    }
    return 0;
}
