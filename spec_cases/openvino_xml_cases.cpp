// The OpenVINO spec's <layer> examples (seeds 000, 001, 004), parsed as XML: the layer type and
// <data> attributes pick the op and its attributes; the port dims give the shapes.
#include <pugixml.hpp>

#include "core/error.hpp"
#include "spec_cases/case_builders.hpp"
#include "spec_cases/embedded_data.hpp"
#include "spec_cases/independent_expectation.hpp"

namespace spec_cases {
namespace {

struct Layer {
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    std::vector<core::Shape> ports;  // inputs 0 and 1, then the output
};

[[noreturn]] void malformed(std::string_view path, const std::string& why) {
    throw core::Error(core::ErrorKind::input, std::string(path) + ": " + why);
}

Layer parse_layer(std::string_view path) {
    const std::string_view text = embedded_file(path);
    pugi::xml_document doc;
    if (!doc.load_buffer(text.data(), text.size())) malformed(path, "not well-formed XML");
    const pugi::xml_node layer = doc.child("layer");
    Layer out;
    out.op =
        core::find_op_version("openvino." + std::string(layer.attribute("type").value()) + "-1");
    if (!out.op) malformed(path, "unknown layer type");
    for (const pugi::xml_attribute a : layer.child("data").attributes())
        out.attributes[a.name()] = a.value();
    for (const char* group : {"input", "output"})
        for (const pugi::xml_node port : layer.child(group).children("port")) {
            core::Shape shape;
            for (const pugi::xml_node dim : port.children("dim"))
                shape.push_back(dim.text().as_llong());
            out.ports.push_back(shape);
        }
    if (out.ports.size() != 3) malformed(path, "expected two input ports and one output port");
    return out;
}

// The example's rule and rounding, read from its <data> element as the spec words them.
Placement placement_of(const Layer& layer) {
    const std::string rule =
        layer.attributes.count("auto_broadcast") ? layer.attributes.at("auto_broadcast") : "numpy";
    return {rule == "none" ? core::BroadcastRule::none : core::BroadcastRule::numpy, std::nullopt};
}

bool floors(const Layer& layer) {
    const auto it = layer.attributes.find("m_pythondiv");
    return it == layer.attributes.end() || it->second == "true";
}

// One check per element type the op allows, on exact operands.
std::vector<Check> layer_checks(std::string_view path) {
    const Layer layer = parse_layer(path);
    std::vector<Check> checks;
    for (core::ElementType type : layer.op->element_types) {
        Check c{layer.op->id() + " " + std::string(core::name(type)),
                layer.op,
                layer.attributes,
                fill_dividends(type, layer.ports[0]),
                fill_divisors(type, layer.ports[1]),
                {}};
        c.expected.output = expected_output(layer.op->arithmetic, floors(layer),
                                            placement_of(layer), c.a, c.b, layer.ports[2]);
        checks.push_back(std::move(c));
    }
    return checks;
}

}  // namespace

std::vector<SpecCase> openvino_xml_cases() {
    std::vector<SpecCase> cases;
    for (const EmbeddedFile& f : embedded_files()) {
        if (!f.path.starts_with("openvino/") || !f.path.ends_with(".xml")) continue;
        const std::string stem(f.path.substr(9, f.path.size() - 9 - 4));
        const std::string path(f.path);
        cases.push_back({"openvino." + stem, "OpenVINO opset1 spec <layer> example (" + path + ")",
                         Category::spec_value, [path] { return layer_checks(path); }});
    }
    return cases;
}

}  // namespace spec_cases
