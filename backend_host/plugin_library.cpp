#include "backend_host/plugin_library.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "core/op_table.hpp"

namespace backend_host {

// The eltwise-backend/1 messages (backends/protocol.hpp) the host reads and writes.
using backends::Hello;
namespace {

constexpr std::size_t kInitMessageCapacity = 4096;

// dlsym returns void*; POSIX guarantees that it converts to a function pointer.
template <class Function>
Function find_symbol(void* handle, const char* name) {
    dlerror();
    void* symbol = dlsym(handle, name);
    return reinterpret_cast<Function>(symbol);
}

core::ElementType claimed_type(const std::string& op, const std::string& name) {
    const auto t = core::element_type_named(name);
    if (t && *t != core::ElementType::boolean) return *t;
    throw PluginLoadError("the plugin claims unknown element type '" + name + "' for " + op);
}

void add_claim(Hello& hello, const eltwise_claim& claim) {
    if (!claim.op || !claim.dtypes) throw PluginLoadError("the plugin's claims hold a NULL string");
    const std::string op = claim.op;
    const core::OpVersion* version = core::find_op_version(op);
    if (!version || version->id() != op)
        throw PluginLoadError("the plugin claims unknown op-version id '" + op +
                              "' (see eltwise-validate list)");
    auto& types = hello.ops[op];
    std::istringstream names(claim.dtypes);
    for (std::string name; names >> name;) {
        const core::ElementType t = claimed_type(op, name);
        if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
    }
}

Hello hello_from(const eltwise_backend_info& info) {
    if (info.abi_version != ELTWISE_BACKEND_ABI_VERSION)
        throw PluginLoadError("the plugin was built for ABI version " +
                              std::to_string(info.abi_version) + ", this host speaks version " +
                              std::to_string(ELTWISE_BACKEND_ABI_VERSION));
    if (!info.name || !info.version) throw PluginLoadError("the plugin's name or version is NULL");
    if (info.claim_count > 0 && !info.claims) throw PluginLoadError("the plugin's claims are NULL");
    Hello hello{info.name, info.version, {}};
    for (std::size_t i = 0; i < info.claim_count; ++i)
        add_claim(hello, info.claims[i]);
    hello.output_region = true;  // the host writes into the region for every plugin
    hello.input_region = true;   // and reads the inputs from theirs
    return hello;
}

// dlopen searches only the library path for a name without '/': a plugin in the current
// directory would be missed, which surprises anyone who types `host libX.so` next to it.
std::string dlopen_name(const std::string& path) {
    if (path.find('/') == std::string::npos && ::access(path.c_str(), F_OK) == 0)
        return "./" + path;
    return path;
}

}  // namespace

PluginLibrary::PluginLibrary(const std::string& path, const std::vector<std::string>& args) {
    handle_ = dlopen(dlopen_name(path).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw PluginLoadError(std::string("cannot load the plugin: ") + dlerror());
    const auto init = find_symbol<eltwise_backend_init_fn>(handle_, ELTWISE_BACKEND_INIT_SYMBOL);
    run_ = find_symbol<eltwise_backend_run_fn>(handle_, ELTWISE_BACKEND_RUN_SYMBOL);
    shutdown_ = find_symbol<eltwise_backend_shutdown_fn>(handle_, ELTWISE_BACKEND_SHUTDOWN_SYMBOL);
    for (const auto& [found, name] : {std::pair{init != nullptr, ELTWISE_BACKEND_INIT_SYMBOL},
                                      std::pair{run_ != nullptr, ELTWISE_BACKEND_RUN_SYMBOL}})
        if (!found)
            throw PluginLoadError("'" + path + "' does not export " + name +
                                  " (is it an eltwise backend plugin?)");
    std::vector<const char*> argv{path.c_str()};
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    argv.push_back(nullptr);
    char message[kInitMessageCapacity] = {};
    const eltwise_backend_info* info =
        init(static_cast<int>(argv.size() - 1), argv.data(), message, sizeof message);
    message[sizeof message - 1] = '\0';
    if (!info) throw PluginLoadError(std::string("the plugin's init failed: ") + message);
    hello_ = hello_from(*info);
}

PluginLibrary::~PluginLibrary() {
    if (shutdown_) shutdown_();
}

}  // namespace backend_host
