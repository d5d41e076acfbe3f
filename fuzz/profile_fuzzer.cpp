// Backend profiles (TOML): parsed, then every entry matched against a few calls and platforms.
#include "core/error.hpp"
#include "core/op_table.hpp"
#include "profiles/backend_profile.hpp"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    profiles::Profile profile;
    try {
        profile = profiles::parse_profile(
            std::string_view(reinterpret_cast<const char*>(data), size), "profile.toml");
    } catch (const core::Error&) {
        return 0;
    }
    platform::Platform avx2{"Linux", "x86_64", "AuthenticAMD", "EPYC", {"avx2", "fma"}, "", "",
                            "",      {}};
    for (const profiles::Entry& e : profile.entries) {
        e.condition.holds(platform::host());
        e.condition.holds(avx2);
        for (const core::OpVersion& op : core::op_versions())
            profiles::in_scope(e, op, core::ElementType::bf16, core::BroadcastRule::pdpd,
                               "runtime");
    }
    return 0;
}
