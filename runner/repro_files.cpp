#include "runner/repro_files.hpp"

#include <filesystem>
#include <functional>

#include "io/npy_file.hpp"
#include "io/onnx_node_test_dir.hpp"
#include "results/repro_file_names.hpp"

namespace runner {

std::string repro_dir_name(const std::string& case_id) {
    std::string safe;
    for (char c : case_id.substr(0, 120)) {
        const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ||
                          c == '=' || c == '-';
        safe += keep ? c : '_';
    }
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(case_id));
    return "cases/" + safe + "_" + std::string(hash, 8);
}

std::vector<std::string> save_repro(const std::string& dir, const core::OpVersion& op,
                                    const core::CaseRecord& data,
                                    const judging::CaseResult& result) {
    std::filesystem::create_directories(dir);
    std::vector<std::string> files;
    const auto save = [&](std::string_view name, const core::Tensor& t) {
        files.push_back(dir + "/" + std::string(name));
        io::write_npy(files.back(), t);
    };
    save(results::kReproA, data.a);
    save(results::kReproB, data.b);
    if (data.valid) save(results::kReproExpected, result.expected.value);
    if (!result.actual.bytes.empty() || !result.actual.shape.empty())
        save(results::kReproActual, result.actual);
    if (data.valid && op.domain == "onnx") {
        files.push_back(dir + "/onnx");
        io::write_onnx_node_test(files.back(), op, data.attributes, data.a, data.b,
                                 result.expected.value);
    }
    return files;
}

}  // namespace runner
