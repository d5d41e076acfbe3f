#include "runner/platform_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "backends/command_line.hpp"
#include "backends/process_backend.hpp"

namespace runner {
namespace {

constexpr std::string_view kPlatforms =
    "host, avx2, arm64, arm64-<QEMU CPU model>, x86-<QEMU CPU model>";

std::filesystem::path arm64_folder() {
    const char* given = std::getenv("ELTWISE_ARM64");
    return given && *given ? std::filesystem::path(given)
                           : std::filesystem::path(ELTWISE_SOURCE_DIR) / ".arm64";
}

std::string launcher_script(const PlatformChoice& choice) {
    return choice.arch == "x86_64" ? ELTWISE_SOURCE_DIR "/scripts/x86_exec.sh"
                                   : ELTWISE_SOURCE_DIR "/scripts/arm64_exec.sh";
}

// The x86 platform probe sits beside this executable (build tree and install alike).
std::string x86_probe() {
    return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "eltwise-cpu-probe")
        .string();
}

bool is_model_name(std::string_view model) {
    return !model.empty() &&
           model.find_first_not_of(
               "abcdefghijklmnopqrstuvwxyz"
               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == std::string_view::npos;
}

}  // namespace

// An emulated platform needs this checkout's launcher and its install step: QEMU for x86, the
// root filesystem for arm64.
void check_platform_installed(const PlatformChoice& choice) {
    if (!choice.emulated()) return;
    if (!std::filesystem::exists(launcher_script(choice)))
        throw backends::BackendStartError("an emulated platform runs from a source checkout (" +
                                          launcher_script(choice) + " is missing)");
    if (choice.arch == "x86_64") {
        if (!std::filesystem::exists("/usr/bin/qemu-x86_64-static"))
            throw backends::BackendStartError(
                "no /usr/bin/qemu-x86_64-static for " + choice.name +
                "; install: scripts/install_dependencies.sh --platform x86");
        return;
    }
    if (!std::filesystem::exists(arm64_folder() / "rootfs/opt/venv/bin/python"))
        throw backends::BackendStartError(
            "no arm64 root filesystem with its Python packages at " + arm64_folder().string() +
            "; install: scripts/install_dependencies.sh --platform arm64");
}

namespace {

// The standard output of a command line (run by the shell), or a BackendStartError.
std::string output_of(const std::string& command) {
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe) throw backends::BackendStartError("cannot run " + command);
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
    const int status = ::pclose(pipe);
    if (status != 0)
        throw backends::BackendStartError(command + " failed (status " + std::to_string(status) +
                                          "): " + out.substr(0, 500));
    return out;
}

std::string quoted_line(const std::vector<std::string>& words) {
    std::string line;
    for (const std::string& w : words)
        line += (line.empty() ? "" : " ") + backends::shell_quoted(w);
    return line;
}

}  // namespace

PlatformChoice parse_platform(std::string_view text) {
    if (text.empty() || text == "host") return {"host", "", "", ""};
    if (text == "avx2") return {"avx2", "avx2", "", ""};
    if (text == "arm64") return {"arm64-max", "", "aarch64", "max"};
    if (text.starts_with("arm64-") && is_model_name(text.substr(6)))
        return {std::string(text), "", "aarch64", std::string(text.substr(6))};
    if (text.starts_with("x86-") && is_model_name(text.substr(4)))
        return {std::string(text), "", "x86_64", std::string(text.substr(4))};
    throw std::invalid_argument("unknown platform '" + std::string(text) + "' (" +
                                std::string(kPlatforms) + ")");
}

namespace {

// An emulated CPU's facts: what its probe prints when run there, and the emulator's version.
platform::Platform emulated_facts(const PlatformChoice& choice) {
    check_platform_installed(choice);
    const bool x86 = choice.arch == "x86_64";
    std::vector<std::string> probe = platform_launcher(choice);
    if (x86)
        probe.push_back(x86_probe());
    else
        probe.insert(probe.end(),
                     {"/usr/bin/python3", ELTWISE_SOURCE_DIR "/platform/arm64_features.py"});
    const std::string version =
        output_of(std::string(x86 ? "qemu-x86_64" : "qemu-aarch64") + "-static --version");
    return platform::emulated(
        output_of(quoted_line(probe)), choice.cpu,
        version.substr(0, version.find(" (")) + ", user mode, -cpu " + choice.cpu);
}

}  // namespace

platform::Platform platform_facts(const PlatformChoice& choice) {
    platform::Platform p = choice.emulated() ? emulated_facts(choice)
                           : choice.isa_cap.empty()
                               ? platform::host()
                               : platform::capped(platform::host(), choice.isa_cap);
    p.name = choice.name;
    return p;
}

std::vector<std::string> platform_launcher(const PlatformChoice& choice) {
    if (!choice.emulated()) return {};
    return {launcher_script(choice), "--cpu", choice.cpu};
}

bool runs_on(const backends::Adapter& adapter, const PlatformChoice& choice) {
    if (choice.arch == "aarch64")
        return std::find(adapter.platforms.begin(), adapter.platforms.end(), "arm64") !=
               adapter.platforms.end();
    return choice.isa_cap.empty() || adapter.isa_cap_env.contains(choice.isa_cap);
}

void check_adapter_platform(const backends::Adapter& adapter, const PlatformChoice& choice) {
    if (!choice.emulated() || runs_on(adapter, choice)) return;
    throw std::invalid_argument("adapter '" + adapter.name + "' does not run on " + choice.name +
                                " (its adapter.json lists no \"arm64\" platform)");
}

// Inside the arm64 root filesystem the Python packages are in /opt/venv; the adapters and the kit
// are at their host paths (arm64_exec.sh binds this checkout there). No Node.js, no native
// plugins. An emulated x86 CPU runs the host's programs.
backends::AdapterPaths paths_on(const PlatformChoice& choice, backends::AdapterPaths host_paths) {
    if (choice.arch != "aarch64") return host_paths;
    host_paths.python = host_paths.venv_python = "/opt/venv/bin/python";
    host_paths.node = host_paths.host = host_paths.lib = "/nonexistent-on-arm64";
    return host_paths;
}

}  // namespace runner
