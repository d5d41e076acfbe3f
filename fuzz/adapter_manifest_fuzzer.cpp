// Adapter manifests (backends/adapters/*/adapter.json): parsed, then the command filled in.
#include "backends/adapter_table.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const backends::Adapter a = backends::parse_manifest(
            std::string_view(reinterpret_cast<const char*>(data), size), "lib", "adapter.json");
        backends::adapter_command(a, {"python3", "py", "node", "host", "lib", "adapters", "kit"});
    } catch (const core::Error&) {
    }
    return 0;
}
