// The adapters of real libraries (backends/adapters/), by name, so that `run --backend torch`
// needs no command line. Each is an out-of-process backend: a script or a plugin behind
// eltwise-backend-host, described by the manifest adapter.json in its folder: adding an adapter
// means adding a folder (docs/CONTRIBUTING.md, "How to add an adapter").
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace backends {

struct SmokeSettings {
    std::string cases;                  // the smoke run's --cases
    int count = 1, seed = 1;            // its --count and --seed
    std::vector<std::string> isa_caps;  // one more smoke run per cap (run --isa-cap)
    std::string ops;                    // its --op, when not every claimed op version
    std::string dtypes;                 // its --dtype, when not every claimed type
};

struct Adapter {
    std::string name;     // what --backend takes: the folder's name
    std::string library;  // what it runs, for `list --backends`
    std::string version;  // how the library's version is read (its hello carries it)
    // The command line, with {python} {venv_python} {node} {host} {lib} {adapters} {here}
    // filled in by adapter_command ({here}: the adapter's own folder).
    std::string command;
    std::string install;  // how to install the library, for an unavailable adapter
    // The library's own knob that caps the ISA its kernels use (run --platform avx2), if it has
    // one: for each cap, the environment settings that apply it. The manifest's "isa_cap_env" is
    // either a oneDNN-style variable, whose value is the cap in capitals ("ONEDNN_MAX_CPU_ISA"
    // -> AVX2), or the settings per cap ({"avx2": {"NPY_DISABLE_CPU_FEATURES": "X86_V4 ..."}}).
    std::map<std::string, std::map<std::string, std::string>> isa_cap_env;
    // The emulated platform of another architecture it also runs on ("arm64": in the arm64 root
    // filesystem of scripts/install_arm64.sh, under qemu-aarch64; run --platform arm64[-CPU]).
    // Emulated x86 CPUs (run --platform x86-CPU) run every adapter.
    std::vector<std::string> platforms;
    SmokeSettings smoke;
    // The seconds a compiling library may take to build one case's code (PROTOCOL.md section 9
    // item 19): the hello may come that much later (a warm-up compile before it), and each
    // case's timeout is that much longer.
    int compile_latency_seconds = 0;
};

// The adapter of one manifest's text; `folder` is the name of the folder it is in. Throws
// core::Error naming `where` and what is wrong.
Adapter parse_manifest(std::string_view text, const std::string& folder, const std::string& where);

// The adapters of every <dir>/*/adapter.json, sorted by name; none when `dir` does not exist.
std::vector<Adapter> read_adapters(const std::filesystem::path& dir);

// Where the pieces are: the interpreters (Debian's python3 and the project's .venv python), the
// plugin host, the plugin directory, the adapters' folder and the Python adapter kit's folder.
struct AdapterPaths {
    std::string python, venv_python, node, host, lib, adapters, python_kit;
};

// The adapter's command line for these paths.
std::string adapter_command(const Adapter& adapter, const AdapterPaths& paths);

// What the adapter's process adds to its environment: the kit's folder first on PYTHONPATH, so
// that the in-repo adapters import the kit that came with this validator.
std::vector<std::string> adapter_environment(const AdapterPaths& paths);

}  // namespace backends
