#include "optimized/cpu_dispatch.hpp"

#include <atomic>

namespace optimized {
namespace {

// -1: no override; otherwise the Isa's value.
std::atomic<int> g_override{-1};

}  // namespace

bool cpu_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") &&
                            __builtin_cpu_supports("fma");
    return has;
}

Isa active_isa() {
    const int forced = g_override.load(std::memory_order_relaxed);
    if (forced == static_cast<int>(Isa::portable)) return Isa::portable;
    return cpu_has_avx2() ? Isa::avx2 : Isa::portable;
}

void set_isa_override(std::optional<Isa> isa) {
    g_override.store(isa ? static_cast<int>(*isa) : -1, std::memory_order_relaxed);
}

}  // namespace optimized
