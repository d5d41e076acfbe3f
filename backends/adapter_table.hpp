// The adapters of real libraries (backends/adapters/), by name, so that `run --backend torch`
// needs no command line. Each is an out-of-process backend: a script or a plugin behind
// eltwise-backend-host.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace backends {

struct Adapter {
    std::string_view name;     // what --backend takes
    std::string_view library;  // what it runs, for `list --backends`
    // The command line, with {python} {venv_python} {node} {host} {lib} {adapters} filled in
    // by adapter_command.
    std::string_view command;
    // The library's own knob that caps the ISA its kernels use (run --isa-cap), if it has one.
    std::string_view isa_cap_env = {};
};

const std::vector<Adapter>& adapters();
const Adapter* find_adapter(std::string_view name);  // nullptr: no such adapter

// Where the pieces are: the interpreters (Debian's python3 and the project's .venv python), the
// plugin host, the plugin directory, the adapters' source folder and the Python adapter kit's
// folder (backends/kit/python).
struct AdapterPaths {
    std::string python, venv_python, node, host, lib, adapters, python_kit;
};

// The adapter's command line for these paths.
std::string adapter_command(const Adapter& adapter, const AdapterPaths& paths);

// What the adapter's process adds to its environment: the kit's folder first on PYTHONPATH, so
// that the in-repo adapters import the kit that came with this validator.
std::vector<std::string> adapter_environment(const AdapterPaths& paths);

}  // namespace backends
