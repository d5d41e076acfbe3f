// Reading ONNX's shipped node tests, writing repro directories, and reading them back.
// Expected values come from hand-decoding the Debian files (xxd) and from the ONNX spec.
#include "io/onnx_node_test_dir.hpp"

#include <gtest/gtest.h>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "core/error.hpp"

#ifndef ELTWISE_ONNX_TESTDATA_DIR
#define ELTWISE_ONNX_TESTDATA_DIR "/usr/share/libonnx-testdata/data/node"
#endif

namespace io {
namespace {

namespace fs = std::filesystem;
using core::ElementType;
using core::Shape;

std::string debian(const std::string& test) {
    return std::string(ELTWISE_ONNX_TESTDATA_DIR) + "/" + test;
}

template <class T>
std::vector<T> values_of(const core::Tensor& t) {
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

std::uint32_t f32_bits(const core::Tensor& t, std::size_t i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, t.bytes.data() + 4 * i, 4);
    return bits;
}

const core::OpVersion& op(const char* id) {
    const core::OpVersion* found = core::find_op_version(id);
    if (!found) throw std::logic_error(std::string("no op version ") + id);
    return *found;
}

// ---- Debian's libonnx-testdata ----------------------------------------------------------------

struct DebianCase {
    const char* test;
    const char* op;  // every model file ends in opset_import {domain "", version 14}
    ElementType type;
    Shape a, b;
};

// Hand-decoded from the files: each model.onnx starts 08 07 (ir_version 7) and ends
// 42 04 0a 00 10 0e, i.e. opset_import {domain "" (0a 00), version 14 (10 0e)}, so Mul-14/Div-14.
// Shapes and data_type from each .pb header (08 03 08 04 08 05 = dims 3,4,5; 10 01 = FLOAT,
// 10 02 = UINT8).
const DebianCase kDebian[] = {
    {"test_mul_example", "onnx.Mul-14", ElementType::f32, {3}, {3}},
    {"test_mul", "onnx.Mul-14", ElementType::f32, {3, 4, 5}, {3, 4, 5}},
    {"test_mul_uint8", "onnx.Mul-14", ElementType::u8, {3, 4, 5}, {3, 4, 5}},
    {"test_mul_bcast", "onnx.Mul-14", ElementType::f32, {3, 4, 5}, {5}},
    {"test_div_example", "onnx.Div-14", ElementType::f32, {2}, {2}},
    {"test_div", "onnx.Div-14", ElementType::f32, {3, 4, 5}, {3, 4, 5}},
    {"test_div_uint8", "onnx.Div-14", ElementType::u8, {3, 4, 5}, {3, 4, 5}},
    {"test_div_bcast", "onnx.Div-14", ElementType::f32, {3, 4, 5}, {5}},
};

TEST(DebianNodeTests, VersionTypesAndShapes) {
    for (const DebianCase& c : kDebian) {
        SCOPED_TRACE(c.test);
        const OnnxNodeTest t = read_onnx_node_test(debian(c.test));
        EXPECT_EQ(t.op->id(), c.op);
        EXPECT_TRUE(t.attributes.empty());
        ASSERT_EQ(t.data_sets.size(), 1u);
        const OnnxDataSet& d = t.data_sets[0];
        EXPECT_EQ(d.name, "test_data_set_0");
        EXPECT_EQ(d.a.type, c.type);
        EXPECT_EQ(d.b.type, c.type);
        EXPECT_EQ(d.a.shape, c.a);
        EXPECT_EQ(d.b.shape, c.b);
        ASSERT_TRUE(d.expected);
        EXPECT_EQ(d.expected->type, c.type);
        EXPECT_EQ(d.expected->shape, c.a);
    }
}

TEST(DebianNodeTests, ExampleValuesFromTheSpec) {
    const OnnxDataSet mul = read_onnx_node_test(debian("test_mul_example")).data_sets.at(0);
    EXPECT_EQ(values_of<float>(mul.a), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(values_of<float>(mul.b), (std::vector<float>{4, 5, 6}));
    EXPECT_EQ(values_of<float>(*mul.expected), (std::vector<float>{4, 10, 18}));
    const OnnxDataSet div = read_onnx_node_test(debian("test_div_example")).data_sets.at(0);
    EXPECT_EQ(values_of<float>(div.a), (std::vector<float>{3, 4}));
    EXPECT_EQ(values_of<float>(div.b), (std::vector<float>{1, 2}));
    EXPECT_EQ(values_of<float>(*div.expected), (std::vector<float>{3, 2}));
}

TEST(DebianNodeTests, Uint8ValuesDecodedByHand) {
    // test_mul_uint8 bytes 3..4: a = 01 03, b = 17 0a, out = 17 1e (1*23 = 23, 3*10 = 30).
    const OnnxDataSet mul = read_onnx_node_test(debian("test_mul_uint8")).data_sets.at(0);
    EXPECT_EQ(mul.a.values<std::uint8_t>()[3], 1);
    EXPECT_EQ(mul.b.values<std::uint8_t>()[3], 23);
    EXPECT_EQ(mul.expected->values<std::uint8_t>()[3], 23);
    EXPECT_EQ(mul.expected->values<std::uint8_t>()[4], 30);
    // test_div_uint8 bytes 0..5: a = 10 06 00 0c 12 03, b = 0b 05 17 17 17 01,
    // out = 01 01 00 00 00 03 (16/11, 6/5, 0/23, 12/23, 18/23, 3/1 truncated).
    const OnnxDataSet div = read_onnx_node_test(debian("test_div_uint8")).data_sets.at(0);
    const std::vector<std::uint8_t> first_a{16, 6, 0, 12, 18, 3}, first_out{1, 1, 0, 0, 0, 3};
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(div.a.values<std::uint8_t>()[i], first_a[i]);
        EXPECT_EQ(div.expected->values<std::uint8_t>()[i], first_out[i]);
    }
}

TEST(DebianNodeTests, FloatBitsDecodedByHand) {
    // test_mul: x[0] = 78 cc e1 3f (1.7640524, numpy's randn seed 0), y[0] = 5e 26 2c bf,
    // z[0] = 38 d7 97 bf.
    const OnnxDataSet mul = read_onnx_node_test(debian("test_mul")).data_sets.at(0);
    EXPECT_EQ(f32_bits(mul.a, 0), 0x3fe1cc78u);
    EXPECT_EQ(f32_bits(mul.b, 0), 0xbf2c265eu);
    EXPECT_EQ(f32_bits(*mul.expected, 0), 0xbf97d738u);
    // test_mul_bcast: y has 5 elements; z[5] = x[5] * y[0] = e2 2e 7a bf * y[0] = ff 3c 28 3f.
    const OnnxDataSet bcast = read_onnx_node_test(debian("test_mul_bcast")).data_sets.at(0);
    EXPECT_EQ(f32_bits(bcast.b, 0), 0xbf2c265eu);
    EXPECT_EQ(f32_bits(bcast.a, 5), 0xbf7a2ee2u);
    EXPECT_EQ(f32_bits(*bcast.expected, 5), 0x3f283cffu);
}

// ---- Writing and reading back -----------------------------------------------------------------

class TempDir : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        root = fs::temp_directory_path() / ("onnx_node_test_" + std::to_string(::getpid()) + "_" +
                                            info->test_suite_name() + "_" + info->name());
        fs::remove_all(root);
    }
    void TearDown() override { fs::remove_all(root); }
    std::string path(const std::string& sub) const { return (root / sub).string(); }
    fs::path root;
};

// Distinct bytes per element type and tensor, so that a swapped or shifted buffer shows.
core::Tensor patterned(ElementType type, const Shape& shape, unsigned seed) {
    core::Tensor t = core::Tensor::zeros(type, shape);
    for (std::size_t i = 0; i < t.bytes.size(); ++i)
        t.bytes[i] = std::byte(type == ElementType::boolean ? (i + seed) % 2 : i * 37 + seed);
    return t;
}

void expect_same(const core::Tensor& actual, const core::Tensor& expected) {
    EXPECT_EQ(actual.type, expected.type);
    EXPECT_EQ(actual.shape, expected.shape);
    EXPECT_TRUE(actual.bytes == expected.bytes);
}

using OnnxNodeTestRoundTrip = TempDir;

// TensorProto.DataType numbers from onnx.proto, written out by hand.
int onnx_data_type(ElementType t) {
    switch (t) {
        case ElementType::boolean:
            return 9;
        case ElementType::i8:
            return 3;
        case ElementType::i16:
            return 5;
        case ElementType::i32:
            return 6;
        case ElementType::i64:
            return 7;
        case ElementType::u8:
            return 2;
        case ElementType::u16:
            return 4;
        case ElementType::u32:
            return 12;
        case ElementType::u64:
            return 13;
        case ElementType::f16:
            return 10;
        case ElementType::bf16:
            return 16;
        case ElementType::f32:
            return 1;
        case ElementType::f64:
            return 11;
    }
    return -1;
}

onnx::TensorProto load_tensor_proto(const std::string& path) {
    onnx::TensorProto proto;
    std::ifstream in(path, std::ios::binary);
    if (!proto.ParseFromIstream(&in)) throw std::runtime_error("cannot parse " + path);
    return proto;
}

onnx::ModelProto load_model(const std::string& path) {
    onnx::ModelProto model;
    std::ifstream in(path, std::ios::binary);
    if (!model.ParseFromIstream(&in)) throw std::runtime_error("cannot parse " + path);
    return model;
}

Shape dims_of(const onnx::ValueInfoProto& info) {
    Shape dims;
    for (const auto& d : info.type().tensor_type().shape().dim())
        dims.push_back(d.dim_value());
    return dims;
}

// The graph's declared inputs A, B and output C: names, element type, static shapes.
void expect_graph_types(const std::string& dir, int data_type, const Shape& a, const Shape& b,
                        const Shape& c) {
    const onnx::GraphProto graph = load_model(dir + "/model.onnx").graph();
    ASSERT_EQ(graph.input_size(), 2);
    ASSERT_EQ(graph.output_size(), 1);
    const onnx::ValueInfoProto* infos[] = {&graph.input(0), &graph.input(1), &graph.output(0)};
    const char* names[] = {"A", "B", "C"};
    const Shape shapes[] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(infos[i]->name(), names[i]);
        EXPECT_EQ(infos[i]->type().tensor_type().elem_type(), data_type);
        EXPECT_TRUE(infos[i]->type().tensor_type().has_shape());  // rank 0 is known, not absent
        EXPECT_EQ(dims_of(*infos[i]), shapes[i]);
    }
}

TEST_F(OnnxNodeTestRoundTrip, EveryElementTypeWithScalarB) {
    const core::OpVersion& mul14 = op("onnx.Mul-14");
    for (const auto& info : core::kElementTypes) {
        SCOPED_TRACE(std::string(info.name));
        const std::string dir = path(std::string(info.name) + "/nested");  // parents created
        const auto a = patterned(info.type, {2, 3}, 1), b = patterned(info.type, {}, 2);
        const auto c = patterned(info.type, {2, 3}, 3);
        write_onnx_node_test(dir, mul14, {}, a, b, c);
        EXPECT_EQ(load_tensor_proto(dir + "/test_data_set_0/input_0.pb").data_type(),
                  onnx_data_type(info.type));
        expect_graph_types(dir, onnx_data_type(info.type), {2, 3}, {}, {2, 3});
        const OnnxNodeTest t = read_onnx_node_test(dir);
        EXPECT_EQ(t.op, &mul14);
        EXPECT_TRUE(t.attributes.empty());
        ASSERT_EQ(t.data_sets.size(), 1u);
        expect_same(t.data_sets[0].a, a);
        expect_same(t.data_sets[0].b, b);
        ASSERT_TRUE(t.data_sets[0].expected);
        expect_same(*t.data_sets[0].expected, c);
    }
}

TEST_F(OnnxNodeTestRoundTrip, HalfAndBfloatAreRawBitsLittleEndian) {
    const auto a =
        core::make_tensor<ElementType::f16>({2}, {core::Half{0x3c00}, core::Half{0x7e01}});
    const auto b = core::make_tensor<ElementType::bf16>({}, {core::BFloat16{0x3f80}});
    write_onnx_node_test(path("t"), op("onnx.Div-13"), {}, a, b, a);
    const onnx::TensorProto pa = load_tensor_proto(path("t/test_data_set_0/input_0.pb"));
    const onnx::TensorProto pb = load_tensor_proto(path("t/test_data_set_0/input_1.pb"));
    EXPECT_EQ(pa.name(), "A");
    EXPECT_EQ(pa.data_type(), onnx::TensorProto::FLOAT16);
    EXPECT_EQ(pa.raw_data(), std::string("\x00\x3c\x01\x7e", 4));
    EXPECT_EQ(pb.name(), "B");
    EXPECT_EQ(pb.data_type(), onnx::TensorProto::BFLOAT16);
    EXPECT_EQ(pb.dims_size(), 0);
    EXPECT_EQ(pb.raw_data(), std::string("\x80\x3f", 2));
}

TEST_F(OnnxNodeTestRoundTrip, U64AndRankZeroEverywhere) {
    const auto a = core::make_tensor<ElementType::u64>({}, {0xfedcba9876543210ull});
    const auto c = core::make_tensor<ElementType::u64>({}, {1});
    write_onnx_node_test(path("t"), op("onnx.Div-7"), {}, a, a, c);
    const OnnxNodeTest t = read_onnx_node_test(path("t"));
    EXPECT_EQ(t.op->id(), "onnx.Div-7");
    EXPECT_EQ(t.data_sets.at(0).a.shape, Shape{});
    EXPECT_EQ(t.data_sets.at(0).a.values<std::uint64_t>()[0], 0xfedcba9876543210ull);
    EXPECT_EQ(t.data_sets.at(0).expected->values<std::uint64_t>()[0], 1u);
}

TEST_F(OnnxNodeTestRoundTrip, LegacyAttributesAreInts) {
    const auto a = patterned(ElementType::f32, {2, 3, 4}, 1),
               b = patterned(ElementType::f32, {3}, 2);
    write_onnx_node_test(path("t"), op("onnx.Mul-6"), {{"broadcast", "1"}, {"axis", "1"}}, a, b, a);
    const OnnxNodeTest t = read_onnx_node_test(path("t"));
    EXPECT_EQ(t.op->id(), "onnx.Mul-6");
    EXPECT_EQ(t.attributes, (core::AttributeMap{{"axis", "1"}, {"broadcast", "1"}}));
    expect_graph_types(path("t"), onnx::TensorProto::FLOAT, {2, 3, 4}, {3}, {2, 3, 4});
    const onnx::ModelProto model = load_model(path("t/model.onnx"));
    EXPECT_EQ(model.ir_version(), 8);
    ASSERT_EQ(model.opset_import_size(), 1);
    EXPECT_EQ(model.opset_import(0).domain(), "");
    EXPECT_EQ(model.opset_import(0).version(), 6);
    const onnx::NodeProto& node = model.graph().node(0);
    EXPECT_EQ(node.op_type(), "Mul");
    EXPECT_EQ(node.input(0), "A");
    EXPECT_EQ(node.input(1), "B");
    EXPECT_EQ(node.output(0), "C");
    for (const auto& attr : node.attribute())
        EXPECT_EQ(attr.type(), onnx::AttributeProto::INT) << attr.name();
}

TEST_F(OnnxNodeTestRoundTrip, ConsumedInputsAndUnknownAttributes) {
    const auto a = patterned(ElementType::f32, {2}, 1);
    const core::AttributeMap attributes{
        {"consumed_inputs", "1,2"}, {"broadcast", "yes"}, {"colour", "red"}, {"level", "-3"}};
    write_onnx_node_test(path("t"), op("onnx.Mul-1"), attributes, a, a, a);
    EXPECT_EQ(read_onnx_node_test(path("t")).attributes, attributes);
    std::map<std::string, int> types;
    const onnx::ModelProto model = load_model(path("t/model.onnx"));
    for (const auto& attr : model.graph().node(0).attribute())
        types[attr.name()] = attr.type();
    EXPECT_EQ(types, (std::map<std::string, int>{{"consumed_inputs", onnx::AttributeProto::INTS},
                                                 {"broadcast", onnx::AttributeProto::STRING},
                                                 {"colour", onnx::AttributeProto::STRING},
                                                 {"level", onnx::AttributeProto::INT}}));
}

TEST_F(OnnxNodeTestRoundTrip, OverwritesAnExistingDirectory) {
    const auto small = patterned(ElementType::i32, {1}, 1),
               big = patterned(ElementType::i32, {9}, 2);
    write_onnx_node_test(path("t"), op("onnx.Mul-14"), {}, big, big, big);
    write_onnx_node_test(path("t"), op("onnx.Mul-14"), {}, small, small, small);
    expect_same(read_onnx_node_test(path("t")).data_sets.at(0).a, small);
}

// ---- The written model is valid ONNX ----------------------------------------------------------

using OnnxNodeTestChecker = TempDir;

// check_model validates the node against the opset's schema; strict shape inference with type
// checks also proves the declared types and the output shape agree with ONNX's own inference.
void expect_valid_onnx(const std::string& dir) {
    EXPECT_NO_THROW(onnx::checker::check_model(dir + "/model.onnx"));
    onnx::ModelProto model = load_model(dir + "/model.onnx");
    EXPECT_NO_THROW(onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(true, 1, false)));
}

TEST_F(OnnxNodeTestChecker, EveryOnnxVersionAndAllowedType) {
    for (const core::OpVersion& v : core::op_versions()) {
        if (v.domain != "onnx") continue;
        for (ElementType type : v.element_types) {
            SCOPED_TRACE(v.id() + " " + std::string(core::name(type)));
            const auto a = patterned(type, {2, 3}, 1), b = patterned(type, {}, 2);
            const core::AttributeMap attributes =
                v.version < 7 ? core::AttributeMap{{"broadcast", "1"}} : core::AttributeMap{};
            write_onnx_node_test(path("t"), v, attributes, a, b, a);
            expect_valid_onnx(path("t"));
        }
    }
}

TEST_F(OnnxNodeTestChecker, Mul6BroadcastAxisAndMul1ConsumedInputs) {
    const auto a = patterned(ElementType::f32, {2, 3, 4}, 1),
               b = patterned(ElementType::f32, {3}, 2);
    write_onnx_node_test(path("m6"), op("onnx.Mul-6"), {{"broadcast", "1"}, {"axis", "1"}}, a, b,
                         a);
    expect_valid_onnx(path("m6"));
    write_onnx_node_test(path("m1"), op("onnx.Div-1"),
                         {{"broadcast", "1"}, {"axis", "1"}, {"consumed_inputs", "0,1"}}, a, b, a);
    expect_valid_onnx(path("m1"));
}

TEST_F(OnnxNodeTestChecker, AWrongOutputShapeIsCaught) {
    // The check above must be able to fail: ONNX infers (2,3) for C, not (3,2).
    const auto a = patterned(ElementType::f32, {2, 3}, 1),
               c = patterned(ElementType::f32, {3, 2}, 1);
    write_onnx_node_test(path("t"), op("onnx.Mul-14"), {}, a, a, c);
    onnx::ModelProto model = load_model(path("t/model.onnx"));
    EXPECT_ANY_THROW(onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(true, 1, false)));
}

// ---- Opset resolution -------------------------------------------------------------------------

using OnnxNodeTestOpset = TempDir;

// Writes a Mul-7 test, then rewrites the model's opset import and node domain.
std::string with_opset(const std::string& dir, const std::string& domain, std::int64_t opset,
                       const std::string& node_domain = "") {
    const auto a = patterned(ElementType::f32, {2}, 1);
    write_onnx_node_test(dir, op("onnx.Mul-7"), {}, a, a, a);
    onnx::ModelProto model = load_model(dir + "/model.onnx");
    model.mutable_opset_import(0)->set_domain(domain);
    model.mutable_opset_import(0)->set_version(opset);
    model.mutable_graph()->mutable_node(0)->set_domain(node_domain);
    std::ofstream(dir + "/model.onnx", std::ios::binary) << model.SerializeAsString();
    return dir;
}

TEST_F(OnnxNodeTestOpset, LargestSinceVersionNotAboveTheOpset) {
    const std::pair<std::int64_t, const char*> table[] = {
        {1, "onnx.Mul-1"},   {5, "onnx.Mul-1"},   {6, "onnx.Mul-6"},
        {7, "onnx.Mul-7"},   {12, "onnx.Mul-7"},  {13, "onnx.Mul-13"},
        {14, "onnx.Mul-14"}, {15, "onnx.Mul-14"}, {18, "onnx.Mul-14"},
    };
    for (const auto& [opset, id] : table) {
        SCOPED_TRACE(opset);
        EXPECT_EQ(read_onnx_node_test(with_opset(path("t"), "", opset)).op->id(), id);
    }
}

TEST_F(OnnxNodeTestOpset, AiOnnxDomainIsTheDefaultDomain) {
    EXPECT_EQ(read_onnx_node_test(with_opset(path("t"), "ai.onnx", 13, "ai.onnx")).op->id(),
              "onnx.Mul-13");
}

// ---- Errors name the file ---------------------------------------------------------------------

using OnnxNodeTestErrors = TempDir;

void expect_input_error(const std::function<void()>& f, const std::string& file,
                        const std::string& why) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one naming " << file;
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

TEST_F(OnnxNodeTestErrors, ModelProblems) {
    const std::string model = path("t/model.onnx");
    auto read = [&] { read_onnx_node_test(path("t")); };
    expect_input_error(read, model, "cannot open");
    with_opset(path("t"), "", 0);
    expect_input_error(read, model, "no Mul version at opset 0");
    with_opset(path("t"), "com.microsoft", 14);
    expect_input_error(read, model, "no opset_import");
    with_opset(path("t"), "", 14, "com.microsoft");
    expect_input_error(read, model, "expected ONNX Mul or Div");
    onnx::ModelProto m = load_model(model);
    m.mutable_graph()->mutable_node(0)->set_domain("");
    m.mutable_graph()->mutable_node(0)->set_op_type("Add");
    write_bytes(model, m.SerializeAsString());
    expect_input_error(read, model, "expected ONNX Mul or Div");
    m.mutable_graph()->add_node()->CopyFrom(m.graph().node(0));
    write_bytes(model, m.SerializeAsString());
    expect_input_error(read, model, "2 nodes");
    write_bytes(model, std::string("\x0a\xff", 2));  // a length-delimited field, cut short
    expect_input_error(read, model, "not a serialized ModelProto");
}

TEST_F(OnnxNodeTestErrors, UnsupportedAttributeType) {
    with_opset(path("t"), "", 14);
    onnx::ModelProto m = load_model(path("t/model.onnx"));
    auto* attr = m.mutable_graph()->mutable_node(0)->add_attribute();
    attr->set_name("scale");
    attr->set_type(onnx::AttributeProto::FLOAT);
    attr->set_f(2.0f);
    write_bytes(path("t/model.onnx"), m.SerializeAsString());
    expect_input_error([&] { read_onnx_node_test(path("t")); }, path("t/model.onnx"), "scale");
}

TEST_F(OnnxNodeTestErrors, DataSetProblems) {
    with_opset(path("t"), "", 14);
    const std::string input_1 = path("t/test_data_set_0/input_1.pb");
    auto read = [&] { read_onnx_node_test(path("t")); };
    onnx::TensorProto p;
    p.set_data_type(onnx::TensorProto::FLOAT);
    p.add_dims(2);
    p.set_raw_data(std::string(7, '\0'));  // 2 floats need 8 bytes
    write_bytes(input_1, p.SerializeAsString());
    expect_input_error(read, input_1, "raw_data has 7 bytes");
    p.clear_raw_data();
    p.add_float_data(1.0f);  // 2 elements need 2 values
    write_bytes(input_1, p.SerializeAsString());
    expect_input_error(read, input_1, "1 values for shape (2)");
    p.set_data_type(onnx::TensorProto::COMPLEX64);
    write_bytes(input_1, p.SerializeAsString());
    expect_input_error(read, input_1, "data_type 14");
    p.set_data_type(onnx::TensorProto::FLOAT);
    p.set_dims(0, -2);
    write_bytes(input_1, p.SerializeAsString());
    expect_input_error(read, input_1, "input_1.pb");
    write_bytes(input_1, "\x0a\xff");
    expect_input_error(read, input_1, "not a serialized TensorProto");
    fs::remove(input_1);
    expect_input_error(read, input_1, "cannot open");
}

TEST_F(OnnxNodeTestErrors, WriterProblems) {
    const auto a = patterned(ElementType::f32, {2}, 1);
    expect_input_error(
        [&] { write_onnx_node_test(path("t"), op("openvino.Multiply-1"), {}, a, a, a); }, path("t"),
        "not an ONNX op version");
    fs::create_directories(root);
    write_bytes(path("file"), "x");  // a regular file where a directory must go
    expect_input_error(
        [&] { write_onnx_node_test(path("file/t"), op("onnx.Mul-14"), {}, a, a, a); },
        path("file/t"), "cannot create");
}

// ---- Typed fields (how older tests store data) and data-set order ---------------------------

using OnnxTensorProto = TempDir;

core::Tensor read_proto(const std::string& path, const onnx::TensorProto& p) {
    write_bytes(path, p.SerializeAsString());
    return read_tensor_proto(path);
}

TEST_F(OnnxTensorProto, TypedFields) {
    fs::create_directories(root);
    const std::string file = path("x.pb");
    onnx::TensorProto p;
    p.add_dims(2);
    p.set_data_type(onnx::TensorProto::FLOAT16);  // int32_data holds the raw bits
    p.add_int32_data(0x3c00);
    p.add_int32_data(0xc000);
    const core::Tensor h = read_proto(file, p);
    EXPECT_EQ(h.values<core::Half>()[0].bits, 0x3c00);  // 1.0
    EXPECT_EQ(h.values<core::Half>()[1].bits, 0xc000);  // -2.0
    p.clear_int32_data();
    p.set_data_type(onnx::TensorProto::UINT32);  // uint64_data holds u32 and u64
    p.add_uint64_data(4000000000u);
    p.add_uint64_data(7);
    EXPECT_EQ(values_of<std::uint32_t>(read_proto(file, p)),
              (std::vector<std::uint32_t>{4000000000u, 7}));
    p.clear_uint64_data();
    p.set_data_type(onnx::TensorProto::INT8);  // int32_data holds the narrow integers
    p.add_int32_data(-128);
    p.add_int32_data(127);
    EXPECT_EQ(values_of<std::int8_t>(read_proto(file, p)), (std::vector<std::int8_t>{-128, 127}));
    p.clear_int32_data();
    p.set_data_type(onnx::TensorProto::DOUBLE);
    p.add_double_data(0.5);
    p.add_double_data(-3);
    EXPECT_EQ(values_of<double>(read_proto(file, p)), (std::vector<double>{0.5, -3}));
}

TEST_F(OnnxTensorProto, BoolBytesBecomeZeroOrOne) {
    fs::create_directories(root);
    onnx::TensorProto p;
    p.add_dims(3);
    p.set_data_type(onnx::TensorProto::BOOL);
    p.set_raw_data(std::string("\x00\x02\x01", 3));  // any non-zero byte is true
    const core::Tensor t = read_proto(path("b.pb"), p);
    EXPECT_EQ(t.type, ElementType::boolean);
    EXPECT_TRUE(t.bytes == (core::Bytes{std::byte{0}, std::byte{1}, std::byte{1}}));
}

TEST_F(OnnxTensorProto, DataSetsInNumericOrder) {
    const auto a = patterned(ElementType::f32, {1}, 1);
    write_onnx_node_test(path("t"), op("onnx.Mul-14"), {}, a, a, a);
    for (const char* n : {"10", "2", "1"})
        fs::copy(path("t/test_data_set_0"), path(std::string("t/test_data_set_") + n));
    fs::remove(path("t/test_data_set_2/output_0.pb"));  // expected output is optional
    std::vector<std::string> names;
    for (const OnnxDataSet& d : read_onnx_node_test(path("t")).data_sets)
        names.push_back(d.name);
    EXPECT_EQ(names, (std::vector<std::string>{"test_data_set_0", "test_data_set_1",
                                               "test_data_set_2", "test_data_set_10"}));
    EXPECT_FALSE(read_onnx_node_test(path("t")).data_sets[2].expected);
}

}  // namespace
}  // namespace io

// Found by fuzz/onnx_fuzzer.cpp: dims of 2^61 elements were allocated before the data was
// checked. Every element takes at least one byte of the file.
TEST(TensorProtoLimits, DimsClaimingMoreElementsThanTheFileHoldsAreRefusedFirst) {
    onnx::TensorProto proto;
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_dims(std::int64_t{1} << 31);
    proto.add_dims(std::int64_t{1} << 30);
    proto.set_raw_data(std::string(16, '\0'));
    const std::string path = ::testing::TempDir() + "huge_dims.pb";
    std::ofstream(path, std::ios::binary) << proto.SerializeAsString();
    try {
        io::read_tensor_proto(path);
        ADD_FAILURE() << "no error";
    } catch (const core::Error& e) {
        EXPECT_NE(std::string(e.what()).find("claim more elements than the file's"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}
