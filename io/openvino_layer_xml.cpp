#include "io/openvino_layer_xml.hpp"

#include <pugixml.hpp>

#include <charconv>

#include "core/broadcast.hpp"
#include "core/error.hpp"

namespace io {
namespace {

[[noreturn]] void malformed(std::string_view where, const std::string& why) {
    throw core::Error(core::ErrorKind::input, std::string(where) + ": " + why);
}

std::int64_t dimension(const pugi::xml_node dim, std::string_view where) {
    const std::string_view text = dim.text().get();
    std::int64_t value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0)
        malformed(where, "<dim>" + std::string(text) + "</dim> is not a non-negative integer");
    return value;
}

core::Shape port_shape(const pugi::xml_node port, std::string_view where) {
    core::Shape shape;
    for (const pugi::xml_node dim : port.children("dim"))
        shape.push_back(dimension(dim, where));
    std::int64_t count = 0;
    try {
        count = core::element_count(shape);
    } catch (const core::Error& e) {
        malformed(where, std::string("port shape: ") + e.what());
    }
    if (count > kMaxLayerElements)
        malformed(where, "port " + core::to_string(shape) + " has more than " +
                             std::to_string(kMaxLayerElements) + " elements");
    return shape;
}

// The output port must be what the op's broadcast rule makes of the input ports.
void check_output_port(const OpenVinoLayer& layer, std::string_view where) {
    core::Shape out;
    try {
        const core::OpConfig config = core::resolve_attributes(*layer.op, layer.attributes);
        out = core::broadcast_shape(layer.ports[0], layer.ports[1], config.broadcast);
    } catch (const core::Error& e) {
        malformed(where, e.what());
    }
    if (out != layer.ports[2])
        malformed(where, "output port " + core::to_string(layer.ports[2]) +
                             " is not the broadcast of the input ports, " + core::to_string(out));
}

}  // namespace

OpenVinoLayer parse_openvino_layer(std::string_view xml, std::string_view where) {
    pugi::xml_document doc;
    if (!doc.load_buffer(xml.data(), xml.size())) malformed(where, "not well-formed XML");
    const pugi::xml_node layer = doc.child("layer");
    OpenVinoLayer out;
    out.op =
        core::find_op_version("openvino." + std::string(layer.attribute("type").value()) + "-1");
    if (!out.op) malformed(where, "unknown layer type");
    for (const pugi::xml_attribute a : layer.child("data").attributes())
        out.attributes[a.name()] = a.value();
    for (const char* group : {"input", "output"})
        for (const pugi::xml_node port : layer.child(group).children("port"))
            out.ports.push_back(port_shape(port, where));
    if (out.ports.size() != 3) malformed(where, "expected two input ports and one output port");
    check_output_port(out, where);
    return out;
}

}  // namespace io
