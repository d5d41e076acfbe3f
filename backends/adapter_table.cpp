#include "backends/adapter_table.hpp"

#include "backends/process_backend.hpp"

namespace backends {

const std::vector<Adapter>& adapters() {
    static const std::vector<Adapter> table = {
        {"onnxruntime", "ONNX Runtime (npm onnxruntime-node), CPU execution provider",
         "{node} {adapters}/onnxruntime/ort_backend.mjs"},
        {"torch", "PyTorch (Debian python3-torch)", "{python} {adapters}/torch/torch_backend.py"},
        {"numpy", "numpy (Debian python3-numpy)", "{python} {adapters}/numpy/numpy_backend.py"},
        {"onednn", "oneDNN binary primitive (Debian libdnnl-dev)",
         "{host} {lib}/libeltwise_onednn_plugin.so"},
        {"xnnpack", "XNNPACK multiply/divide nd operators (Debian libxnnpack-dev)",
         "{host} {lib}/libeltwise_xnnpack_plugin.so"},
    };
    return table;
}

const Adapter* find_adapter(std::string_view name) {
    for (const Adapter& a : adapters())
        if (a.name == name) return &a;
    return nullptr;
}

std::string adapter_command(const Adapter& adapter, const AdapterPaths& paths) {
    const std::pair<std::string_view, const std::string*> fills[] = {
        {"{python}", &paths.python},
        {"{node}", &paths.node},
        {"{host}", &paths.host},
        {"{lib}", &paths.lib},
        {"{adapters}", &paths.adapters}};
    std::string command(adapter.command);
    for (const auto& [key, value] : fills) {
        const std::string word = shell_quoted(*value);  // paths with spaces stay one word
        for (std::size_t at = command.find(key); at != std::string::npos;
             at = command.find(key, at + word.size()))
            command.replace(at, key.size(), word);
    }
    return command;
}

}  // namespace backends
