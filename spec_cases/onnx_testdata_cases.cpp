// ONNX's own node tests for Mul and Div (Debian package libonnx-testdata): model.onnx plus
// serialized TensorProto inputs and the output numpy computed. Each runs on every ONNX version of
// the op that allows its dtype and can express its shapes.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <onnx/onnx_pb.h>

#include "core/error.hpp"
#include "spec_cases/case_builders.hpp"

#ifndef ELTWISE_ONNX_TESTDATA_DIR
#define ELTWISE_ONNX_TESTDATA_DIR "/usr/share/libonnx-testdata/data/node"
#endif

namespace spec_cases {
namespace {

// The Mul and Div tests ONNX ships; written out so that a missing package fails them by name.
constexpr const char* kTests[] = {"test_mul_example", "test_mul",         "test_mul_uint8",
                                  "test_mul_bcast",   "test_div_example", "test_div",
                                  "test_div_uint8",   "test_div_bcast"};

std::string testdata_dir() {
    const char* env = std::getenv("ELTWISE_ONNX_TESTDATA_DIR");
    return env ? env : ELTWISE_ONNX_TESTDATA_DIR;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw core::Error(core::ErrorKind::input,
                          "cannot open " + path + " (is Debian's libonnx-testdata installed?)");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

core::ElementType element_type_of(int onnx_type, const std::string& path) {
    using P = onnx::TensorProto;
    switch (onnx_type) {
        case P::FLOAT:
            return core::ElementType::f32;
        case P::DOUBLE:
            return core::ElementType::f64;
        case P::FLOAT16:
            return core::ElementType::f16;
        case P::BFLOAT16:
            return core::ElementType::bf16;
        case P::INT8:
            return core::ElementType::i8;
        case P::INT16:
            return core::ElementType::i16;
        case P::INT32:
            return core::ElementType::i32;
        case P::INT64:
            return core::ElementType::i64;
        case P::UINT8:
            return core::ElementType::u8;
        case P::UINT16:
            return core::ElementType::u16;
        case P::UINT32:
            return core::ElementType::u32;
        case P::UINT64:
            return core::ElementType::u64;
        case P::BOOL:
            return core::ElementType::boolean;
    }
    throw core::Error(core::ErrorKind::input,
                      path + ": unsupported TensorProto data_type " + std::to_string(onnx_type));
}

// Typed fields hold one value per element, in the widest field of the type's family.
template <class T, class Field>
void copy_typed(core::Tensor& t, const Field& field, const std::string& path) {
    if (field.size() != t.size())
        throw core::Error(core::ErrorKind::input, path + ": " + std::to_string(field.size()) +
                                                      " values for shape " +
                                                      core::to_string(t.shape));
    auto out = t.values<T>();
    for (int i = 0; i < field.size(); ++i) {
        if constexpr (std::is_same_v<T, core::Half> || std::is_same_v<T, core::BFloat16>)
            out[i] = T{static_cast<std::uint16_t>(field.Get(i))};  // stored as raw bits
        else
            out[i] = static_cast<T>(field.Get(i));
    }
}

core::Tensor load_tensor(const std::string& path) {
    onnx::TensorProto proto;
    if (!proto.ParseFromString(read_file(path)))
        throw core::Error(core::ErrorKind::input, path + ": not a serialized TensorProto");
    core::Tensor t = core::Tensor::zeros(element_type_of(proto.data_type(), path),
                                         core::Shape(proto.dims().begin(), proto.dims().end()));
    if (proto.has_raw_data()) {
        if (proto.raw_data().size() != t.bytes.size())
            throw core::Error(core::ErrorKind::input, path + ": raw_data has the wrong size");
        std::memcpy(t.bytes.data(), proto.raw_data().data(), t.bytes.size());
        return t;
    }
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
    return t;
}

std::string op_type_of(const std::string& dir) {
    onnx::ModelProto model;
    if (!model.ParseFromString(read_file(dir + "/model.onnx")) || model.graph().node_size() != 1)
        throw core::Error(core::ErrorKind::input, dir + "/model.onnx: not a one-node ONNX model");
    return model.graph().node(0).op_type();
}

std::vector<Check> testdata_checks(const std::string& test) {
    const std::string dir = testdata_dir() + "/" + test;
    const std::string op_type = op_type_of(dir);
    const std::string data = dir + "/test_data_set_0/";
    const core::Tensor a = load_tensor(data + "input_0.pb"), b = load_tensor(data + "input_1.pb");
    const core::Tensor expected = load_tensor(data + "output_0.pb");
    std::vector<Check> checks;
    for (const core::OpVersion& op : core::op_versions()) {
        if (op.domain != "onnx" || op.name != op_type || !op.allows(a.type)) continue;
        core::AttributeMap attributes;
        if (op.broadcast == core::BroadcastFamily::onnx_legacy && a.shape != b.shape)
            attributes["broadcast"] = "1";  // the legacy versions broadcast only when asked
        Check c{op.id() + " " + std::string(core::name(a.type)), &op, attributes, a, b, {}};
        c.expected.output = core::OpOutput{expected, {}};
        checks.push_back(std::move(c));
    }
    return checks;
}

}  // namespace

std::vector<SpecCase> onnx_testdata_cases() {
    std::vector<SpecCase> cases;
    for (const char* test : kTests) {
        const std::string name(test);
        const std::string op = name.starts_with("test_mul") ? "Mul" : "Div";
        cases.push_back({"onnx." + op + "." + name,
                         "ONNX backend node test " + name + " (libonnx-testdata)",
                         Category::spec_value, [name] { return testdata_checks(name); }});
    }
    return cases;
}

}  // namespace spec_cases
