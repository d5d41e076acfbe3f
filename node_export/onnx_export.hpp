// `export --format onnx-node-tests`: the cases a run would select, as ONNX node-test directories
// that ONNX's backend-test loader and ONNX Runtime's test runner read (README, "Our cases in your
// CI").
#pragma once

#include <cstdint>
#include <string>

#include "runner/run_options.hpp"

namespace node_export {

struct ExportCounts {
    std::int64_t written = 0;
    // Not written: invalid calls (a node test is a valid model with its output), OpenVINO op
    // versions (not ONNX), graph forms other than runtime (a node test feeds every input), and
    // outputs with undefined elements (integer division by zero: no value to compare).
    std::int64_t invalid = 0, not_onnx = 0, other_form = 0, undefined = 0;
};

// The kind folder of the export: DIR/<kExportKind>/test_<case>/, the layout of
// onnx.backend.test.loader.load_model_tests(data_dir=DIR, kind=kExportKind).
inline constexpr const char* kExportKind = "eltwise";

// Writes every case the options select (sources, --op, --dtype, --case, --seed, --count, ...;
// the reference claims every pair) that is a valid runtime-form call of an ONNX op version
// without undefined elements: model.onnx, test_data_set_0/input_0.pb, input_1.pb, output_0.pb
// (the reference's output) and data.json (rtol 0, atol 0: the values are exact). Throws
// std::invalid_argument for a bad option, core::Error for an I/O error.
ExportCounts export_onnx_node_tests(const runner::RunOptions& o, const std::string& dir);

}  // namespace node_export
