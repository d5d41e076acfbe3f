// Which backend a command talks to: a built-in one by name, or a child process by command line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/adapter_table.hpp"
#include "backends/backend.hpp"
#include "runner/platform_choice.hpp"
#include "runner/run_options.hpp"

namespace runner {

// The adapters of this validator's adapters folder (backends/adapter_table.hpp: the source tree's
// backends/adapters, or the installed copy), read once; a bad manifest throws core::Error.
const std::vector<backends::Adapter>& adapters();
const backends::Adapter* find_adapter(const std::string& name);  // nullptr: no such adapter

// The folder of the adapter of this name (its manifest, script, profile.toml, expected.txt): in
// the source tree, or in the installed data directory. "" when there is no such adapter.
std::string adapter_folder(const std::string& name);

// "optimized, reference, onnxruntime, ...": every name that open_backend takes.
std::string backend_names();

// The command line of the adapter of this name (backends/adapter_table.hpp) on the platform, or
// "" when there is none.
std::string adapter_command_line(const std::string& name, const PlatformChoice& platform);

// A backend as the options name it, resolved once: a built-in backend or an adapter by name, or
// a command line, on a platform (runner/platform_choice.hpp).
struct BackendChoice {
    std::string name, command;
    const backends::Adapter* adapter = nullptr;  // when `name` is an adapter's
    PlatformChoice platform;
};

// Throws std::invalid_argument when the backend cannot run on the platform: an emulated platform
// runs only adapters by name whose manifest lists it. Usage errors, checked before anything
// about the platform is read.
BackendChoice choose_backend(const std::string& name, const std::string& command,
                             const PlatformChoice& platform);

// Exactly one of the choice's name and command must be given. Throws std::invalid_argument for
// an unknown name or a malformed command line, backends::BackendStartError when the child cannot
// be started or says no valid hello.
std::unique_ptr<backends::Backend> open_backend(const BackendChoice& choice);

// --platform avx2 (--isa-cap): sets the adapter's own ISA knob in the environment its process
// inherits. Throws std::invalid_argument for a backend without such a knob.
void apply_isa_cap(const BackendChoice& choice);

}  // namespace runner
