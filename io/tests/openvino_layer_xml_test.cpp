// parse_openvino_layer on hand-written layers: what a well-formed one gives, and the errors that
// fuzz/openvino_xml_fuzzer.cpp showed were needed.
#include "io/openvino_layer_xml.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace {

std::string layer(const std::string& data, const std::string& a, const std::string& b,
                  const std::string& out) {
    const auto port = [](int id, const std::string& dims) {
        std::string text = "<port id=\"" + std::to_string(id) + "\">";
        for (std::size_t i = 0; i < dims.size(); i += 2)
            text += "<dim>" + std::string(1, dims[i]) + "</dim>";
        return text + "</port>";
    };
    return "<layer id=\"1\" type=\"Multiply\"><data " + data + "/><input>" + port(0, a) +
           port(1, b) + "</input><output>" + port(2, out) + "</output></layer>";
}

std::string error_of(const std::string& xml) {
    try {
        io::parse_openvino_layer(xml, "test.xml");
    } catch (const core::Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(OpenVinoLayer, ReadsTypeAttributesAndPorts) {
    const io::OpenVinoLayer l =
        io::parse_openvino_layer(layer("auto_broadcast=\"numpy\"", "2,1", "3", "2,3"), "x");
    EXPECT_EQ(l.op->id(), "openvino.Multiply-1");
    EXPECT_EQ(l.attributes.at("auto_broadcast"), "numpy");
    ASSERT_EQ(l.ports.size(), 3u);
    EXPECT_EQ(l.ports[0], (core::Shape{2, 1}));
    EXPECT_EQ(l.ports[1], (core::Shape{3}));
    EXPECT_EQ(l.ports[2], (core::Shape{2, 3}));
}

// The fuzzer's input: an output port smaller than the broadcast made the expected output read
// past the end of an input.
TEST(OpenVinoLayer, OutputPortMustBeTheBroadcastOfTheInputs) {
    EXPECT_NE(error_of(layer("", "2,3", "3", "2"))
                  .find("test.xml: output port (2) is not the broadcast of the input ports, (2,3)"),
              std::string::npos);
    EXPECT_NE(error_of(layer("auto_broadcast=\"none\"", "2,3", "3", "2,3")).find("test.xml: "),
              std::string::npos);
}

TEST(OpenVinoLayer, DimsMustBeSmallNonNegativeIntegers) {
    std::string negative = layer("", "2", "2", "2");
    negative.replace(negative.find("<dim>2</dim>"), 12, "<dim>-2</dim>");
    EXPECT_NE(error_of(negative).find("<dim>-2</dim> is not a non-negative integer"),
              std::string::npos);
    std::string huge = layer("", "2", "2", "2");
    huge.replace(huge.find("<dim>2</dim>"), 12, "<dim>16385</dim>");
    EXPECT_NE(error_of(huge).find("has more than 16384 elements"), std::string::npos);
    EXPECT_NE(error_of("<layer type=\"Add\"/>").find("unknown layer type"), std::string::npos);
    EXPECT_NE(error_of("<layer").find("not well-formed XML"), std::string::npos);
}
