#include "io/onnx_node_test_dir.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <type_traits>

#include <onnx/onnx_pb.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace io {
namespace {

namespace fs = std::filesystem;
using onnx::AttributeProto;
using onnx::TensorProto;

// ONNX stores raw_data little-endian; the byte copies below are right only on such a host.
static_assert(std::endian::native == std::endian::little, "raw_data copies need little-endian");

// IR 8 (ONNX 1.10-1.12) accepts every opset the table names (1 to 14).
constexpr std::int64_t kIrVersion = 8;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw core::Error(core::ErrorKind::input, path + ": " + what);
}

// The one mapping between the suite's element types and TensorProto data types.
struct TypePair {
    core::ElementType type;
    TensorProto::DataType onnx;
};
constexpr TypePair kTypes[] = {
    {core::ElementType::boolean, TensorProto::BOOL},
    {core::ElementType::i8, TensorProto::INT8},
    {core::ElementType::i16, TensorProto::INT16},
    {core::ElementType::i32, TensorProto::INT32},
    {core::ElementType::i64, TensorProto::INT64},
    {core::ElementType::u8, TensorProto::UINT8},
    {core::ElementType::u16, TensorProto::UINT16},
    {core::ElementType::u32, TensorProto::UINT32},
    {core::ElementType::u64, TensorProto::UINT64},
    {core::ElementType::f16, TensorProto::FLOAT16},
    {core::ElementType::bf16, TensorProto::BFLOAT16},
    {core::ElementType::f32, TensorProto::FLOAT},
    {core::ElementType::f64, TensorProto::DOUBLE},
};

core::ElementType element_type_of(int onnx_type, const std::string& path) {
    for (const TypePair& p : kTypes)
        if (p.onnx == onnx_type) return p.type;
    fail(path, "unsupported TensorProto data_type " + std::to_string(onnx_type));
}

TensorProto::DataType onnx_type_of(core::ElementType type) {
    for (const TypePair& p : kTypes)
        if (p.type == type) return p.onnx;
    throw std::logic_error("onnx_type_of: element type missing from kTypes");
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, "cannot open");
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) fail(path, "read error");
    return s.str();
}

// Typed fields hold one value per element, in the widest field of the type's family.
template <class T, class Field>
void copy_typed(core::Tensor& t, const Field& field, const std::string& path) {
    if (field.size() != t.size())
        fail(path, std::to_string(field.size()) + " values for shape " + core::to_string(t.shape));
    auto out = t.values<T>();
    for (int i = 0; i < field.size(); ++i) {
        if constexpr (std::is_same_v<T, core::Half> || std::is_same_v<T, core::BFloat16>)
            out[i] = T{static_cast<std::uint16_t>(field.Get(i))};  // stored as raw bits
        else
            out[i] = static_cast<T>(field.Get(i));
    }
}

void copy_typed_fields(core::Tensor& t, const TensorProto& proto, const std::string& path) {
    core::dispatch(t.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, float>)
            copy_typed<T>(t, proto.float_data(), path);
        else if constexpr (std::is_same_v<T, double>)
            copy_typed<T>(t, proto.double_data(), path);
        else if constexpr (std::is_same_v<T, std::int64_t>)
            copy_typed<T>(t, proto.int64_data(), path);
        else if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>)
            copy_typed<T>(t, proto.uint64_data(), path);
        else
            copy_typed<T>(t, proto.int32_data(), path);
    });
}

// A zero tensor of the proto's type and dims; a bad shape is a bad file here. Every element
// takes at least one byte of the file (raw_data, or a varint of a typed field), so dims that
// claim more elements than the file has bytes are refused before anything is allocated.
core::Tensor empty_tensor_of(const TensorProto& proto, std::size_t file_bytes,
                             const std::string& path) {
    const core::ElementType type = element_type_of(proto.data_type(), path);
    const core::Shape shape(proto.dims().begin(), proto.dims().end());
    try {
        if (static_cast<std::uint64_t>(core::element_count(shape)) > file_bytes)
            fail(path, "dims " + core::to_string(shape) + " claim more elements than the file's " +
                           std::to_string(file_bytes) + " bytes hold");
        return core::Tensor::zeros(type, shape);
    } catch (const core::Error& e) {
        if (e.kind() == core::ErrorKind::input) throw;
        fail(path, e.what());
    }
}

std::string attribute_text(const AttributeProto& attr, const std::string& path) {
    switch (attr.type()) {
        case AttributeProto::INT:
            return std::to_string(attr.i());
        case AttributeProto::INTS: {
            std::string text;
            for (std::int64_t v : attr.ints())
                text += (text.empty() ? "" : ",") + std::to_string(v);
            return text;
        }
        case AttributeProto::STRING:
            return attr.s();
        default:
            fail(path, "attribute " + attr.name() + " has unsupported type " +
                           AttributeProto::AttributeType_Name(attr.type()));
    }
}

bool is_onnx_domain(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx";
}

std::int64_t onnx_opset(const onnx::ModelProto& model, const std::string& path) {
    for (const auto& opset : model.opset_import())
        if (is_onnx_domain(opset.domain())) return opset.version();
    fail(path, "no opset_import for the ONNX domain");
}

const onnx::NodeProto& only_node(const onnx::ModelProto& model, const std::string& path) {
    const int count = model.graph().node_size();
    if (count != 1) fail(path, std::to_string(count) + " nodes, expected exactly one");
    const onnx::NodeProto& node = model.graph().node(0);
    if (!is_onnx_domain(node.domain()) || (node.op_type() != "Mul" && node.op_type() != "Div"))
        fail(path,
             "the node is " + node.domain() + "::" + node.op_type() + ", expected ONNX Mul or Div");
    return node;
}

// The version in force at the model's opset: the largest since-version not above it.
const core::OpVersion& resolve_op(const std::string& op_type, std::int64_t opset,
                                  const std::string& path) {
    const core::OpVersion* best = nullptr;
    for (const core::OpVersion& op : core::op_versions())
        if (op.domain == "onnx" && op.name == op_type && op.version <= opset &&
            (!best || op.version > best->version))
            best = &op;
    if (!best) fail(path, "no " + op_type + " version at opset " + std::to_string(opset));
    return *best;
}

// test_data_set_N directories in numeric order: a shorter name has a smaller N.
std::vector<fs::path> data_set_dirs(const std::string& dir) {
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory() && it->path().filename().string().starts_with("test_data_set_"))
            dirs.push_back(it->path());
    if (ec) fail(dir, "cannot list: " + ec.message());
    std::sort(dirs.begin(), dirs.end(), [](const fs::path& x, const fs::path& y) {
        const std::string a = x.filename().string(), b = y.filename().string();
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return dirs;
}

OnnxDataSet read_data_set(const fs::path& dir) {
    OnnxDataSet set{dir.filename().string(), read_tensor_proto(dir / "input_0.pb"),
                    read_tensor_proto(dir / "input_1.pb"), std::nullopt};
    if (fs::exists(dir / "output_0.pb")) set.expected = read_tensor_proto(dir / "output_0.pb");
    return set;
}

// "1,2" -> {1, 2}; "" -> {}; nullopt unless every comma-separated piece is a decimal integer.
std::optional<std::vector<std::int64_t>> parse_integers(const std::string& text) {
    std::vector<std::int64_t> values;
    if (text.empty()) return values;
    for (std::size_t start = 0;;) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::int64_t v = 0;
        auto [p, ec] = std::from_chars(text.data() + start, text.data() + comma, v);
        if (ec != std::errc() || p != text.data() + comma) return std::nullopt;
        values.push_back(v);
        if (comma == text.size()) return values;
        start = comma + 1;
    }
}

// The table's type where it applies; otherwise INT if the text is one integer, else STRING.
void add_attribute(onnx::NodeProto& node, const core::OpVersion& op, const std::string& key,
                   const std::string& value) {
    const core::AttributeSpec* spec = op.attribute(key);
    AttributeProto& attr = *node.add_attribute();
    attr.set_name(spec ? std::string(spec->name) : key);
    const auto ints = parse_integers(value);
    if (spec && spec->type == core::AttributeType::integers && ints) {
        attr.set_type(AttributeProto::INTS);
        for (std::int64_t v : *ints)
            attr.add_ints(v);
    } else if (ints && ints->size() == 1) {
        attr.set_type(AttributeProto::INT);
        attr.set_i(ints->front());
    } else {
        attr.set_type(AttributeProto::STRING);
        attr.set_s(value);
    }
}

void fill_value_info(onnx::ValueInfoProto& info, const std::string& name, const core::Tensor& t) {
    info.set_name(name);
    auto& tensor_type = *info.mutable_type()->mutable_tensor_type();
    tensor_type.set_elem_type(onnx_type_of(t.type));
    auto& shape = *tensor_type.mutable_shape();  // rank 0: present and empty, not unknown
    for (std::int64_t d : t.shape)
        shape.add_dim()->set_dim_value(d);
}

TensorProto tensor_proto(const std::string& name, const core::Tensor& t) {
    TensorProto proto;
    proto.set_name(name);
    proto.set_data_type(onnx_type_of(t.type));
    for (std::int64_t d : t.shape)
        proto.add_dims(d);
    proto.set_raw_data(t.bytes.data(), t.bytes.size());
    return proto;
}

onnx::ModelProto make_model(const core::OpVersion& op, const core::AttributeMap& attributes,
                            const core::Tensor& a, const core::Tensor& b,
                            const core::Tensor& expected) {
    onnx::ModelProto model;
    model.set_ir_version(kIrVersion);
    model.set_producer_name("eltwise-conformance");
    auto& opset = *model.add_opset_import();
    opset.set_domain("");
    opset.set_version(op.version);
    auto& graph = *model.mutable_graph();
    graph.set_name("eltwise_repro");
    auto& node = *graph.add_node();
    node.set_op_type(std::string(op.name));
    node.add_input("A");
    node.add_input("B");
    node.add_output("C");
    for (const auto& [key, value] : attributes)
        add_attribute(node, op, key, value);
    fill_value_info(*graph.add_input(), "A", a);
    fill_value_info(*graph.add_input(), "B", b);
    fill_value_info(*graph.add_output(), "C", expected);
    return model;
}

void write_message(const google::protobuf::MessageLite& message, const fs::path& path) {
    std::string bytes;
    if (!message.SerializeToString(&bytes)) fail(path, "cannot serialize");
    const std::span<const std::byte> piece(reinterpret_cast<const std::byte*>(bytes.data()),
                                           bytes.size());
    write_file_atomically(path.string(), std::span(&piece, 1));
}

}  // namespace

core::Tensor read_tensor_proto(const std::string& path) {
    TensorProto proto;
    const std::string bytes = read_file(path);
    if (!proto.ParseFromString(bytes)) fail(path, "not a serialized TensorProto");
    if (proto.data_location() == TensorProto::EXTERNAL) fail(path, "external data unsupported");
    core::Tensor t = empty_tensor_of(proto, bytes.size(), path);
    if (!proto.has_raw_data()) {
        copy_typed_fields(t, proto, path);
        return t;
    }
    if (proto.raw_data().size() != t.bytes.size())
        fail(path, "raw_data has " + std::to_string(proto.raw_data().size()) + " bytes, shape " +
                       core::to_string(t.shape) + " needs " + std::to_string(t.bytes.size()));
    if (!t.bytes.empty()) std::memcpy(t.bytes.data(), proto.raw_data().data(), t.bytes.size());
    if (t.type == core::ElementType::boolean)  // a bool byte other than 0/1 is UB to read
        for (std::byte& x : t.bytes)
            x = std::byte{x != std::byte{0}};
    return t;
}

OnnxNodeTest read_onnx_node_test(const std::string& dir) {
    const std::string path = dir + "/model.onnx";
    onnx::ModelProto model;
    if (!model.ParseFromString(read_file(path))) fail(path, "not a serialized ModelProto");
    const onnx::NodeProto& node = only_node(model, path);
    OnnxNodeTest test{dir, &resolve_op(node.op_type(), onnx_opset(model, path), path), {}, {}};
    for (const AttributeProto& attr : node.attribute())
        test.attributes[attr.name()] = attribute_text(attr, path);
    for (const fs::path& set : data_set_dirs(dir))
        test.data_sets.push_back(read_data_set(set));
    return test;
}

void write_onnx_node_test(const std::string& dir, const core::OpVersion& op,
                          const core::AttributeMap& attributes, const core::Tensor& a,
                          const core::Tensor& b, const core::Tensor& expected) {
    if (op.domain != "onnx") fail(dir, op.id() + " is not an ONNX op version");
    const fs::path data = fs::path(dir) / "test_data_set_0";
    std::error_code ec;
    fs::create_directories(data, ec);
    if (ec) fail(data, "cannot create: " + ec.message());
    write_message(make_model(op, attributes, a, b, expected), fs::path(dir) / "model.onnx");
    write_message(tensor_proto("A", a), data / "input_0.pb");
    write_message(tensor_proto("B", b), data / "input_1.pb");
    write_message(tensor_proto("C", expected), data / "output_0.pb");
}

}  // namespace io
