// `export`: the cases a run would select, in another tool's format (node_export/onnx_export.hpp).
#include <iostream>

#include "node_export/onnx_export.hpp"
#include "validator/commands.hpp"

namespace validator {

int run_export(const ExportOptions& options) {
    const node_export::ExportCounts n =
        node_export::export_onnx_node_tests(options.cases, options.dir);
    std::cout << n.written << " ONNX node tests in " << options.dir << "/"
              << node_export::kExportKind << "; not exported: " << n.invalid << " invalid, "
              << n.not_onnx << " of OpenVINO op versions, " << n.other_form
              << " in other graph forms, " << n.undefined << " with undefined elements\n";
    return 0;
}

}  // namespace validator
