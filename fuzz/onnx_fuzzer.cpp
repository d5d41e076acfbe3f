// ONNX files: an even selector reads the rest as a TensorProto (.pb), an odd one as the
// model.onnx of a node-test directory whose data set is well-formed.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "io/onnx_node_test_dir.hpp"

namespace {

// A node-test directory written once; each input replaces its model.onnx.
const std::string& node_test_dir() {
    static const std::string dir = [] {
        const std::string path = fuzz::scratch_dir() + "/node_test";
        core::Tensor t = core::Tensor::zeros(core::ElementType::f32, {2});
        io::write_onnx_node_test(path, *core::find_op_version("onnx.Mul-14"), {}, t, t, t);
        return path;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    try {
        if (in.selector % 2 == 0) {
            io::read_tensor_proto(fuzz::write_input_file("tensor.pb", in.rest));
        } else {
            const std::string& dir = node_test_dir();
            fuzz::write_input_file("node_test/model.onnx", in.rest);
            io::read_onnx_node_test(dir);
        }
    } catch (const core::Error&) {
    }
    return 0;
}
