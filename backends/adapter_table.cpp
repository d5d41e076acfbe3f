#include "backends/adapter_table.hpp"

#include <cstdlib>

#include "backends/process_backend.hpp"

namespace backends {

const std::vector<Adapter>& adapters() {
    static const std::vector<Adapter> table = {
        {"onnxruntime", "ONNX Runtime (npm onnxruntime-node), CPU execution provider",
         "{node} {adapters}/onnxruntime/ort_backend.mjs"},
        {"torch", "PyTorch (Debian python3-torch)", "{python} {adapters}/torch/torch_backend.py"},
        {"numpy", "numpy (Debian python3-numpy)", "{python} {adapters}/numpy/numpy_backend.py"},
        {"onednn", "oneDNN binary primitive (Debian libdnnl-dev)",
         "{host} {lib}/libeltwise_onednn_plugin.so", "ONEDNN_MAX_CPU_ISA"},
        {"xnnpack", "XNNPACK multiply/divide nd operators (Debian libxnnpack-dev)",
         "{host} {lib}/libeltwise_xnnpack_plugin.so"},
        // From the package index, in .venv (backends/adapters/requirements.lock).
        {"numpy-2", "numpy, current release: the numpy adapter under .venv's Python (PyPI numpy)",
         "{venv_python} {adapters}/numpy/numpy_backend.py"},
        {"openvino", "OpenVINO runtime, CPU plugin: opset1 Multiply/Divide (PyPI openvino)",
         "{venv_python} {adapters}/openvino/openvino_backend.py", "ONEDNN_MAX_CPU_ISA"},
        {"openvino-onnx", "OpenVINO runtime, CPU plugin, through its ONNX frontend (PyPI openvino)",
         "{venv_python} {adapters}/openvino-onnx/openvino_onnx_backend.py", "ONEDNN_MAX_CPU_ISA"},
        {"onnx-reference", "ONNX's reference evaluator (PyPI onnx)",
         "{venv_python} {adapters}/onnx-reference/onnx_reference_backend.py"},
        {"jax", "XLA on the CPU through JAX, jit-compiled (PyPI jax, jaxlib)",
         "{venv_python} {adapters}/jax/jax_backend.py"},
        {"litert", "LiteRT builtin kernels, no delegate (PyPI ai-edge-litert)",
         "{venv_python} {adapters}/litert/litert_backend.py"},
        {"litert-xnnpack", "LiteRT with the XNNPACK delegate (PyPI ai-edge-litert)",
         "{venv_python} {adapters}/litert/litert_backend.py --xnnpack"},
        {"mlx", "MLX on the CPU (PyPI mlx, mlx-cpu)",
         "{venv_python} {adapters}/mlx/mlx_backend.py"},
        {"onednn-2026", "oneDNN binary primitive, current release (PyPI onednn, onednn-devel)",
         "{host} {lib}/libeltwise_onednn2026_plugin.so", "ONEDNN_MAX_CPU_ISA"},
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
        {"{python}", &paths.python}, {"{venv_python}", &paths.venv_python},
        {"{node}", &paths.node},     {"{host}", &paths.host},
        {"{lib}", &paths.lib},       {"{adapters}", &paths.adapters}};
    std::string command(adapter.command);
    for (const auto& [key, value] : fills) {
        const std::string word = shell_quoted(*value);  // paths with spaces stay one word
        for (std::size_t at = command.find(key); at != std::string::npos;
             at = command.find(key, at + word.size()))
            command.replace(at, key.size(), word);
    }
    return command;
}

std::vector<std::string> adapter_environment(const AdapterPaths& paths) {
    const char* given = std::getenv("PYTHONPATH");
    return {"PYTHONPATH=" + paths.python_kit + (given && *given ? ":" + std::string(given) : "")};
}

}  // namespace backends
