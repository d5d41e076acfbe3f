// OpenVINO IR <layer> XML: parsed and validated, then turned into checks with the spec's
// expected outputs. Checks are built for small outputs only: each output element costs one
// computation per element type, and a large one would spend the fuzzer's time in arithmetic
// the spec tests already cover rather than in the parser.
#include "core/error.hpp"
#include "io/openvino_layer_xml.hpp"
#include "spec_cases/openvino_layer_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view xml(reinterpret_cast<const char*>(data), size);
    try {
        const io::OpenVinoLayer layer = io::parse_openvino_layer(xml, "fuzz input");
        if (core::element_count(layer.ports[2]) <= 256) spec_cases::layer_checks(layer);
    } catch (const core::Error&) {
    }
    return 0;
}
