// ONNX's own node tests for Mul and Div (Debian package libonnx-testdata): model.onnx plus
// serialized TensorProto inputs and the output numpy computed. Each runs on every ONNX version of
// the op that allows its dtype and can express its shapes.
#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "io/onnx_node_test_dir.hpp"
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

// ONNX's Mul/Div tests carry no attributes, but the legacy versions broadcast only when asked:
// unequal shapes get the attributes of the first rule the version offers that accepts them.
core::AttributeMap broadcasting_attributes(const core::OpVersion& op, const core::Shape& a,
                                           const core::Shape& b) {
    if (a == b) return {};
    for (core::BroadcastRule rule : core::broadcast_rules(op))
        if (core::broadcasts(a, b, {rule, std::nullopt}))
            return *core::rule_attributes(op, rule, std::nullopt);
    return {};
}

core::CaseRecord make_check(const core::OpVersion& op, const io::OnnxDataSet& data,
                            const std::string& suffix) {
    const core::AttributeMap attributes = broadcasting_attributes(op, data.a.shape, data.b.shape);
    core::CaseRecord c{op.id() + " " + std::string(core::name(data.a.type)) + suffix, &op,
                       attributes, data.a, data.b};
    c.expected.output = core::OpOutput{*data.expected, {}};
    return c;
}

// One check per ONNX version of the test's op that allows its dtype, for every data set.
std::vector<core::CaseRecord> testdata_checks(const std::string& test) {
    const std::string dir = testdata_dir() + "/" + test;
    if (!std::filesystem::is_directory(dir))
        throw core::Error(core::ErrorKind::input,
                          "cannot open " + dir + " (is Debian's libonnx-testdata installed?)");
    const io::OnnxNodeTest node_test = io::read_onnx_node_test(dir);
    if (node_test.data_sets.empty())
        throw core::Error(core::ErrorKind::input, dir + ": no test_data_set_* directory");
    std::vector<core::CaseRecord> checks;
    for (const io::OnnxDataSet& data : node_test.data_sets) {
        if (!data.expected)
            throw core::Error(core::ErrorKind::input, dir + "/" + data.name + ": no output_0.pb");
        // Labels name the data set only when there is more than one (Debian ships one each).
        const std::string suffix = node_test.data_sets.size() > 1 ? " " + data.name : "";
        for (const core::OpVersion& op : core::op_versions())
            if (op.domain == "onnx" && op.name == node_test.op->name && op.allows(data.a.type))
                checks.push_back(make_check(op, data, suffix));
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
