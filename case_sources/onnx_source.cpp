// `onnx`: ONNX node-test directories (model.onnx + test_data_set_*/input_K.pb, output_0.pb):
// Debian's libonnx-testdata test_mul* / test_div*, and any given with --onnx-dir. The op version
// and attributes come from the model; the stored output is checked against the reference, and a
// disagreement is noted on the case as a finding about the test data.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "case_sources/case_sources.hpp"
#include "comparison/output_comparison.hpp"
#include "core/error.hpp"
#include "io/onnx_node_test_dir.hpp"
#include "reference/run.hpp"

#ifndef ELTWISE_ONNX_TESTDATA_DIR
#define ELTWISE_ONNX_TESTDATA_DIR "/usr/share/libonnx-testdata/data/node"
#endif

namespace case_sources {
namespace {

namespace fs = std::filesystem;

std::string debian_testdata_dir() {
    const char* env = std::getenv("ELTWISE_ONNX_TESTDATA_DIR");
    return env ? env : ELTWISE_ONNX_TESTDATA_DIR;
}

bool is_node_test(const fs::path& dir) {
    return fs::is_regular_file(dir / "model.onnx");
}

// Debian's Mul and Div tests, then each --onnx-dir: a node-test dir, or a dir of them.
std::vector<fs::path> node_test_dirs(const std::vector<std::string>& extra) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(debian_testdata_dir(), ec)) {
        const std::string name = entry.path().filename().string();
        if ((name.starts_with("test_mul") || name.starts_with("test_div")) &&
            is_node_test(entry.path()))
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    for (const std::string& d : extra) {
        if (is_node_test(d)) {
            out.push_back(d);
            continue;
        }
        if (!fs::is_directory(d))
            throw core::Error(core::ErrorKind::input,
                              "--onnx-dir " + d + ": not a directory with model.onnx in it");
        std::vector<fs::path> inner;
        for (const auto& entry : fs::directory_iterator(d))
            if (is_node_test(entry.path())) inner.push_back(entry.path());
        std::sort(inner.begin(), inner.end());
        out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
}

// The case's note when the shipped output differs from the reference's.
std::string test_data_finding(const io::OnnxNodeTest& test, const io::OnnxDataSet& set) {
    if (!set.expected) return "";
    const core::OpOutput ours = reference::run(*test.op, test.attributes, set.a, set.b);
    const core::PreparedCall call = core::prepare_call(*test.op, test.attributes, set.a, set.b);
    const comparison::Comparison c =
        comparison::compare_output(call, set.a, set.b, ours, *set.expected, {});
    if (c.passed()) return "";
    return "the test data's output_0.pb disagrees with the reference: " + comparison::describe(c);
}

core::CaseRecord data_of(const std::string& dir, const std::string& set_name) {
    const io::OnnxNodeTest test = io::read_onnx_node_test(dir);
    for (const io::OnnxDataSet& set : test.data_sets) {
        if (set.name != set_name) continue;
        core::CaseRecord d{.op = test.op, .attributes = test.attributes, .a = set.a, .b = set.b};
        try {
            d.note = test_data_finding(test, set);
        } catch (const core::Error& e) {  // the reference rejects what the test data runs
            d.valid = false;
            d.note = std::string("the reference rejects this test data: ") + e.what();
        }
        return d;
    }
    throw core::Error(core::ErrorKind::input, dir + ": no data set " + set_name);
}

}  // namespace

std::vector<PlannedCase> plan_onnx_cases(const std::vector<std::string>& extra_dirs) {
    std::vector<PlannedCase> out;
    for (const fs::path& dir : node_test_dirs(extra_dirs)) {
        const std::string name = dir.filename().string();
        io::OnnxNodeTest test;
        try {
            test = io::read_onnx_node_test(dir.string());
        } catch (const std::exception& e) {
            const std::string reason = e.what();
            out.push_back({"onnx:" + name, "onnx", nullptr, core::ElementType::f32, true,
                           [reason]() -> core::CaseRecord {
                               throw core::Error(core::ErrorKind::input, reason);
                           }});
            continue;
        }
        for (const io::OnnxDataSet& set : test.data_sets) {
            const std::string path = dir.string(), set_name = set.name;
            out.push_back({"onnx:" + name + ":" + set.name, "onnx", test.op, set.a.type, true,
                           [path, set_name] { return data_of(path, set_name); }});
        }
    }
    return out;
}

}  // namespace case_sources
