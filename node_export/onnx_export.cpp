#include "node_export/onnx_export.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>
#include "backends/backend.hpp"

#include "io/json_output.hpp"
#include "io/onnx_node_test_dir.hpp"
#include "judging/prepared_case.hpp"
#include "runner/repro_files.hpp"
#include "runner/run_config.hpp"
#include "runner/run_plan.hpp"

namespace node_export {
namespace {

// test_<case id made a file name>_<hash>: unique per id, as repro directories are.
std::string test_name(const std::string& case_id) {
    return "test_" + runner::repro_dir_name(case_id).substr(std::string("cases/").size());
}

}  // namespace

ExportCounts export_onnx_node_tests(const runner::RunOptions& o, const std::string& dir) {
    const auto reference = backends::make_builtin_backend("reference");
    const backends::Hello& hello = reference->hello();
    const case_sources::SourceOptions sources{
        o.seed, o.count, o.onnx_dirs,
        [&](const case_sources::PlannedCase& c) { return runner::claimed(hello, c, true); }};
    ExportCounts counts;
    const std::filesystem::path root = std::filesystem::path(dir) / kExportKind;
    // The filters, shard and forms, as `run` reads them.
    const runner::RunConfig config = runner::run_config(o);
    for (const case_sources::PlannedCase& c : runner::plan_run(config, sources, hello)) {
        if (!c.valid) {
            ++counts.invalid;
        } else if (c.op->domain != "onnx") {
            ++counts.not_onnx;
        } else if (c.graph_form != "runtime") {
            ++counts.other_form;
        } else {
            const core::CaseRecord data = c.build();
            const core::OpOutput expected =
                judging::expected_output(judging::prepare_case(*c.op, data));
            if (!expected.undefined.empty()) {
                ++counts.undefined;
                continue;
            }
            const std::filesystem::path test = root / test_name(c.id);
            io::write_onnx_node_test(test.string(), *c.op, data.attributes, data.a, data.b,
                                     expected.value);
            const nlohmann::json tolerances = {{"rtol", 0}, {"atol", 0}, {"eltwise_case", c.id}};
            io::write_text_file((test / "data.json").string(), tolerances.dump() + "\n");
            ++counts.written;
        }
    }
    return counts;
}

}  // namespace node_export
