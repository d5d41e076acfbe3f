// ONNX node-test directories, the layout of ONNX's backend tests: model.onnx (a one-node
// ModelProto) plus test_data_set_K/input_0.pb, input_1.pb, output_0.pb (TensorProtos).
// Reading them runs ONNX's own Mul/Div tests; writing one turns a failing case into a repro
// that ONNX tooling (onnx_test_runner, onnx.backend.test) runs as it is. Files are written
// atomically (io/atomic_file.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace io {

struct OnnxDataSet {
    std::string name;  // "test_data_set_0"
    core::Tensor a, b;
    std::optional<core::Tensor> expected;  // output_0.pb, when the data set has one
};

struct OnnxNodeTest {
    std::string dir;
    const core::OpVersion* op = nullptr;  // resolved from the node and the model's opset
    core::AttributeMap attributes;        // the node's attributes as text (ints as decimal)
    std::vector<OnnxDataSet> data_sets;   // in numeric order: _0, _1, ..., _10
};

// Reads a node-test directory. The op version is the table's ONNX version of the node's op
// with the largest since-version <= the model's opset for domain "" / "ai.onnx", the way ONNX
// resolves it (opset 12 -> Mul-7, 13 -> Mul-13, 15 -> Mul-14). INT attributes become decimal
// text, INTS a comma list ("1,2"), STRING its bytes. Throws core::Error(input) naming the file
// for: a missing file, unparsable protobuf, not exactly one node, another op, no matching
// opset, an unsupported attribute or TensorProto type, a data size mismatch.
OnnxNodeTest read_onnx_node_test(const std::string& dir);

// Reads one serialized TensorProto, from raw_data or the typed fields. Throws core::Error(input)
// naming the file.
core::Tensor read_tensor_proto(const std::string& path);

// Writes a node-test directory: model.onnx (ir_version 8, opset_import {"", op.version}, one
// node C = A op B with the attributes, typed and shaped graph inputs and output) and
// test_data_set_0/{input_0,input_1,output_0}.pb as little-endian raw_data (f16/bf16 as raw
// bits). Attributes are written with the table's type (INT / INTS); values that do not parse
// as that type, and attributes the version lacks, are kept as written: INT if decimal, else
// STRING, so that a repro of an invalid case still shows what was sent. Creates dir and its
// parents; overwrites existing files. Throws core::Error(input) for a non-ONNX op version or
// an I/O error.
void write_onnx_node_test(const std::string& dir, const core::OpVersion& op,
                          const core::AttributeMap& attributes, const core::Tensor& a,
                          const core::Tensor& b, const core::Tensor& expected);

}  // namespace io
