#include "runner/backend_choice.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <stdexcept>

#include <unistd.h>

#include <filesystem>

#include "backends/adapter_table.hpp"
#include "backends/process_backend.hpp"
#include "runner/platform_choice.hpp"

namespace runner {
namespace {

// The host sits beside this executable. Installed (cmake --install, the .deb): the adapters and
// the Python kit under <prefix>/ELTWISE_INSTALL_DATADIR, the plugins under
// <prefix>/ELTWISE_INSTALL_PLUGINDIR, the Python packages of the adapters in the environment
// ELTWISE_VENV names (default: python3 on PATH). Else the build tree: build/<preset>/bin and lib,
// the adapters and the kit in the source tree, the project's .venv.
backends::AdapterPaths adapter_paths() {
    const std::filesystem::path bin = std::filesystem::read_symlink("/proc/self/exe").parent_path();
    const std::filesystem::path prefix = bin.parent_path();
    const std::filesystem::path data = prefix / ELTWISE_INSTALL_DATADIR;
    const bool installed = std::filesystem::is_directory(data / "adapters");
    const char* venv = std::getenv("ELTWISE_VENV");
    const std::string venv_python = venv && *venv ? std::string(venv) + "/bin/python"
                                    : installed   ? "python3"
                                                  : ELTWISE_VENV "/bin/python";
    if (installed)
        return {ELTWISE_PYTHON,
                venv_python,
                "node",
                (bin / "eltwise-backend-host").string(),
                (prefix / ELTWISE_INSTALL_PLUGINDIR).string(),
                (data / "adapters").string(),
                (data / "kit" / "python").string()};
    return {ELTWISE_PYTHON,
            venv_python,
            "node",
            (bin / "eltwise-backend-host").string(),
            (prefix / "lib").string(),
            ELTWISE_SOURCE_DIR "/backends/adapters",
            ELTWISE_SOURCE_DIR "/backends/kit/python"};
}

// An adapter whose script or plugin is not there (a plugin not built for lack of its library,
// an installed tree without it) is unavailable for a reason that says how to install it,
// instead of a child that fails to open its file.
void check_adapter_files(const backends::Adapter& adapter, const std::string& command) {
    for (const std::string& word : backends::split_command_line(command))
        if (word.starts_with('/') && !std::filesystem::exists(word))
            throw backends::BackendStartError(
                "adapter '" + adapter.name + "' needs " + word +
                ", which does not exist; install: " + adapter.install);
}

}  // namespace

const std::vector<backends::Adapter>& adapters() {
    static const std::vector<backends::Adapter> table =
        backends::read_adapters(adapter_paths().adapters);
    return table;
}

const backends::Adapter* find_adapter(const std::string& name) {
    for (const backends::Adapter& a : adapters())
        if (a.name == name) return &a;
    return nullptr;
}

std::string adapter_folder(const std::string& name) {
    if (!find_adapter(name)) return "";
    return (std::filesystem::path(adapter_paths().adapters) / name).string();
}

std::string backend_names() {
    std::string names;
    for (std::string_view n : backends::builtin_backend_names())
        names += (names.empty() ? "" : ", ") + std::string(n);
    for (const backends::Adapter& a : adapters())
        names += ", " + a.name;
    return names;
}

std::string adapter_command_line(const std::string& name, const PlatformChoice& platform) {
    const backends::Adapter* adapter = find_adapter(name);
    return adapter ? backends::adapter_command(*adapter, paths_on(platform, adapter_paths())) : "";
}

BackendChoice choose_backend(const std::string& name, const std::string& command,
                             const PlatformChoice& platform) {
    const auto& builtins = backends::builtin_backend_names();
    const bool builtin = std::find(builtins.begin(), builtins.end(), name) != builtins.end();
    BackendChoice c{name, command, name.empty() || builtin ? nullptr : find_adapter(name),
                    platform};
    if (!c.platform.emulated()) return c;
    if (!c.adapter)
        throw std::invalid_argument("--platform " + platform.name + " runs adapters by name (" +
                                    "--backend NAME), not '" + name + command + "'");
    check_adapter_platform(*c.adapter, c.platform);
    return c;
}

std::unique_ptr<backends::Backend> open_backend(const BackendChoice& c) {
    if (c.name.empty() == c.command.empty())
        throw std::invalid_argument("give exactly one of --backend NAME and --backend-cmd CMD");
    check_platform_installed(c.platform);
    if (!c.command.empty())
        return backends::start_process_backend({backends::split_command_line(c.command)});
    if (auto builtin = backends::make_builtin_backend(c.name)) return builtin;
    if (!c.adapter)
        throw std::invalid_argument("unknown backend '" + c.name + "' (known: " + backend_names() +
                                    ")");
    const std::string cmd =
        backends::adapter_command(*c.adapter, paths_on(c.platform, adapter_paths()));
    if (!c.platform.emulated()) check_adapter_files(*c.adapter, cmd);
    std::vector<std::string> argv = platform_launcher(c.platform);
    for (std::string& word : backends::split_command_line(cmd))
        argv.push_back(std::move(word));
    // Under emulation a library's import takes its factor longer too (TensorFlow: about 45 s); a
    // compiling adapter may compile once before its hello (PROTOCOL.md section 9, item 19).
    const double startup_seconds =
        backends::ProcessOptions{}.startup_timeout_seconds + c.adapter->compile_latency_seconds;
    return backends::start_process_backend(
        {.argv = argv,
         .startup_timeout_seconds = startup_seconds * c.platform.timeout_factor(),
         .environment = backends::adapter_environment(adapter_paths())});
}

void apply_isa_cap(const BackendChoice& c) {
    const std::string& cap = c.platform.isa_cap;
    if (!c.adapter || !c.adapter->isa_cap_env.contains(cap)) {
        std::string with_knob;
        for (const backends::Adapter& x : adapters())
            if (x.isa_cap_env.contains(cap)) with_knob += (with_knob.empty() ? "" : ", ") + x.name;
        throw std::invalid_argument(
            "--platform " + c.platform.name + " needs an adapter whose library has an ISA knob (" +
            with_knob + "), not '" + (c.name.empty() ? c.command : c.name) + "'");
    }
    for (const auto& [variable, value] : c.adapter->isa_cap_env.at(cap))
        ::setenv(variable.c_str(), value.c_str(), 1);
}

}  // namespace runner
