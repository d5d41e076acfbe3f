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

std::string backend_names() {
    std::string names;
    for (std::string_view n : backends::builtin_backend_names())
        names += (names.empty() ? "" : ", ") + std::string(n);
    for (const backends::Adapter& a : adapters())
        names += ", " + a.name;
    return names;
}

std::string adapter_command_line(const std::string& name, const std::string& platform) {
    const backends::Adapter* adapter = find_adapter(name);
    return adapter ? backends::adapter_command(*adapter,
                                               paths_on(parse_platform(platform), adapter_paths()))
                   : "";
}

void check_backend_platform(const std::string& name, const std::string& command,
                            const std::string& platform) {
    const PlatformChoice choice = parse_platform(platform);
    if (!choice.emulated()) return;
    if (!find_adapter(name))
        throw std::invalid_argument("--platform " + platform + " runs adapters by name (" +
                                    "--backend NAME), not '" + name + command + "'");
    check_adapter_platform(*find_adapter(name), choice);
}

std::unique_ptr<backends::Backend> open_backend(const std::string& name, const std::string& command,
                                                const std::string& platform) {
    if (name.empty() == command.empty())
        throw std::invalid_argument("give exactly one of --backend NAME and --backend-cmd CMD");
    const PlatformChoice choice = parse_platform(platform);
    check_backend_platform(name, command, platform);
    check_platform_installed(choice);
    if (!command.empty())
        return backends::start_process_backend({backends::split_command_line(command)});
    if (auto builtin = backends::make_builtin_backend(name)) return builtin;
    if (const std::string cmd = adapter_command_line(name, platform); !cmd.empty()) {
        if (!choice.emulated()) check_adapter_files(*find_adapter(name), cmd);
        std::vector<std::string> argv = platform_launcher(choice);
        for (std::string& word : backends::split_command_line(cmd))
            argv.push_back(std::move(word));
        // Under emulation a library's import takes its factor longer too (TensorFlow: about 45 s).
        return backends::start_process_backend(
            {.argv = argv,
             .startup_timeout_seconds =
                 backends::ProcessOptions{}.startup_timeout_seconds * choice.timeout_factor(),
             .environment = backends::adapter_environment(adapter_paths())});
    }
    throw std::invalid_argument("unknown backend '" + name + "' (known: " + backend_names() + ")");
}

void apply_isa_cap(const RunOptions& o) {
    const std::string cap = parse_platform(o.platform).isa_cap;
    const backends::Adapter* a = o.backend.empty() ? nullptr : find_adapter(o.backend);
    if (!a || !a->isa_cap_env.contains(cap)) {
        std::string with_knob;
        for (const backends::Adapter& x : adapters())
            if (x.isa_cap_env.contains(cap)) with_knob += (with_knob.empty() ? "" : ", ") + x.name;
        throw std::invalid_argument(
            "--platform " + o.platform + " needs an adapter whose library has an ISA knob (" +
            with_knob + "), not '" + (o.backend.empty() ? o.backend_cmd : o.backend) + "'");
    }
    for (const auto& [variable, value] : a->isa_cap_env.at(cap))
        ::setenv(variable.c_str(), value.c_str(), 1);
}

}  // namespace runner
