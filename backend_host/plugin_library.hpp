// A native backend loaded from a shared library through the C ABI of eltwise_backend.h.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "backends/protocol.hpp"
#include "plugins/eltwise_backend.h"

namespace backend_host {

// The plugin cannot be used at all: dlopen failed, a required export is missing, init failed,
// the ABI version differs, or the claims name unknown ops or types. The host exits with 2.
class PluginLoadError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class PluginLibrary {
  public:
    // dlopen(path, RTLD_NOW | RTLD_LOCAL), then eltwise_backend_init with argv = {path, args...}.
    // Throws PluginLoadError.
    PluginLibrary(const std::string& path, const std::vector<std::string>& args);
    // Calls eltwise_backend_shutdown, if exported. The library stays loaded: threads it
    // started (e.g. an OpenMP pool) may still run code from it until the process exits.
    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    // The plugin's name, version and claims as the protocol's hello.
    const backends::Hello& hello() const { return hello_; }

    int run(const eltwise_call& call, const eltwise_output& out, char* message,
            std::size_t capacity) const {
        return run_(&call, &out, message, capacity);
    }

  private:
    void* handle_ = nullptr;
    eltwise_backend_run_fn run_ = nullptr;
    eltwise_backend_shutdown_fn shutdown_ = nullptr;
    backends::Hello hello_;
};

}  // namespace backend_host
