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

constexpr std::string_view kPlatforms = "host, avx2, arm64, arm64-<QEMU CPU model>";

std::filesystem::path arm64_folder() {
    const char* given = std::getenv("ELTWISE_ARM64");
    return given && *given ? std::filesystem::path(given)
                           : std::filesystem::path(ELTWISE_SOURCE_DIR) / ".arm64";
}

std::string launcher_script() {
    return ELTWISE_SOURCE_DIR "/scripts/arm64_exec.sh";
}

}  // namespace

// The arm64 platform needs the install step's root filesystem and this checkout's launcher.
void check_platform_installed(const PlatformChoice& choice) {
    if (!choice.emulated()) return;
    if (!std::filesystem::exists(launcher_script()))
        throw backends::BackendStartError("the arm64 platform runs from a source checkout (" +
                                          launcher_script() + " is missing)");
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
    if (text.empty() || text == "host") return {"host", "", ""};
    if (text == "avx2") return {"avx2", "avx2", ""};
    if (text == "arm64") return {"arm64-max", "", "max"};
    if (text.starts_with("arm64-") && text.size() > 6 &&
        text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.") == std::string::npos)
        return {std::string(text), "", std::string(text.substr(6))};
    throw std::invalid_argument("unknown platform '" + std::string(text) + "' (" +
                                std::string(kPlatforms) + ")");
}

platform::Platform platform_facts(const PlatformChoice& choice) {
    platform::Platform p;
    if (choice.emulated()) {
        check_platform_installed(choice);
        std::vector<std::string> probe = platform_launcher(choice);
        probe.insert(probe.end(),
                     {"/usr/bin/python3", ELTWISE_SOURCE_DIR "/platform/arm64_features.py"});
        const std::string version = output_of("qemu-aarch64-static --version");
        p = platform::emulated(
            output_of(quoted_line(probe)), choice.arm64_cpu,
            version.substr(0, version.find(" (")) + ", user mode, -cpu " + choice.arm64_cpu);
    } else {
        p = choice.isa_cap.empty() ? platform::host()
                                   : platform::capped(platform::host(), choice.isa_cap);
    }
    p.name = choice.name;
    return p;
}

std::vector<std::string> platform_launcher(const PlatformChoice& choice) {
    if (!choice.emulated()) return {};
    return {launcher_script(), "--cpu", choice.arm64_cpu};
}

bool runs_on(const backends::Adapter& adapter, const PlatformChoice& choice) {
    if (choice.emulated())
        return std::find(adapter.platforms.begin(), adapter.platforms.end(), "arm64") !=
               adapter.platforms.end();
    return choice.isa_cap.empty() || !adapter.isa_cap_env.empty();
}

void check_adapter_platform(const backends::Adapter& adapter, const PlatformChoice& choice) {
    if (!choice.emulated() || runs_on(adapter, choice)) return;
    throw std::invalid_argument("adapter '" + adapter.name + "' does not run on " + choice.name +
                                " (its adapter.json lists no \"arm64\" platform)");
}

// Inside the root filesystem the Python packages are in /opt/venv; the adapters and the kit are
// at their host paths (arm64_exec.sh binds this checkout there). No Node.js, no native plugins.
backends::AdapterPaths paths_on(const PlatformChoice& choice, backends::AdapterPaths host_paths) {
    if (!choice.emulated()) return host_paths;
    host_paths.python = host_paths.venv_python = "/opt/venv/bin/python";
    host_paths.node = host_paths.host = host_paths.lib = "/nonexistent-on-arm64";
    return host_paths;
}

}  // namespace runner
