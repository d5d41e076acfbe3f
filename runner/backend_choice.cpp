#include "runner/backend_choice.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <stdexcept>

#include <unistd.h>

#include <filesystem>

#include "backends/adapter_table.hpp"
#include "backends/process_backend.hpp"

namespace runner {
namespace {

// The host and the plugins sit beside this executable (build/<preset>/bin and lib); the
// scripts stay in the source tree.
backends::AdapterPaths adapter_paths() {
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
    const std::filesystem::path bin = exe.parent_path();
    return {ELTWISE_PYTHON,
            ELTWISE_VENV "/bin/python",
            "node",
            (bin / "eltwise-backend-host").string(),
            (bin.parent_path() / "lib").string(),
            ELTWISE_SOURCE_DIR "/backends/adapters",
            ELTWISE_SOURCE_DIR "/backends/kit/python"};
}

// An installed eltwise-validate has the host beside it but neither the source tree's scripts
// nor the build tree's plugins: such an adapter is unavailable for a reason that says so,
// instead of a child that fails to open its file.
void check_adapter_files(const std::string& name, const std::string& command) {
    for (const std::string& word : backends::split_command_line(command))
        if (word.starts_with('/') && !std::filesystem::exists(word))
            throw backends::BackendStartError(
                "adapter '" + name + "' needs " + word +
                ", which does not exist (adapters are not installed: they run from the source "
                "and build trees)");
}

}  // namespace

std::string backend_names() {
    std::string names;
    for (std::string_view n : backends::builtin_backend_names())
        names += (names.empty() ? "" : ", ") + std::string(n);
    for (const backends::Adapter& a : backends::adapters())
        names += ", " + std::string(a.name);
    return names;
}

std::string adapter_command_line(const std::string& name) {
    const backends::Adapter* adapter = backends::find_adapter(name);
    return adapter ? backends::adapter_command(*adapter, adapter_paths()) : "";
}

std::unique_ptr<backends::Backend> open_backend(const std::string& name,
                                                const std::string& command) {
    if (name.empty() == command.empty())
        throw std::invalid_argument("give exactly one of --backend NAME and --backend-cmd CMD");
    if (!command.empty())
        return backends::start_process_backend({backends::split_command_line(command)});
    if (auto builtin = backends::make_builtin_backend(name)) return builtin;
    if (const std::string cmd = adapter_command_line(name); !cmd.empty()) {
        check_adapter_files(name, cmd);
        return backends::start_process_backend({.argv = backends::split_command_line(cmd),
                                                .environment = backends::adapter_environment(
                                                    adapter_paths())});
    }
    throw std::invalid_argument("unknown backend '" + name + "' (known: " + backend_names() + ")");
}

void apply_isa_cap(const RunOptions& o) {
    const backends::Adapter* a = o.backend.empty() ? nullptr : backends::find_adapter(o.backend);
    if (!a || a->isa_cap_env.empty()) {
        std::string with_knob;
        for (const backends::Adapter& x : backends::adapters())
            if (!x.isa_cap_env.empty())
                with_knob += (with_knob.empty() ? "" : ", ") + std::string(x.name);
        throw std::invalid_argument("--isa-cap needs an adapter whose library has an ISA knob (" +
                                    with_knob + "), not '" +
                                    (o.backend.empty() ? o.backend_cmd : o.backend) + "'");
    }
    std::string value = o.isa_cap;
    std::transform(value.begin(), value.end(), value.begin(), ::toupper);
    ::setenv(std::string(a->isa_cap_env).c_str(), value.c_str(), 1);
}

}  // namespace runner
