#include "optimized/cpu_dispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace optimized {
namespace {

// -1: no override; otherwise the Isa's value.
std::atomic<int> g_override{-1};

bool detect(Isa isa) {
    switch (isa) {
        case Isa::portable:
            return true;
        case Isa::avx2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") &&
                   __builtin_cpu_supports("fma");
        case Isa::avx512:
            return detect(Isa::avx2) && __builtin_cpu_supports("avx512f") &&
                   __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                   __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
    }
    return false;
}

}  // namespace

std::string_view name(Isa isa) {
    switch (isa) {
        case Isa::portable:
            return "portable";
        case Isa::avx2:
            return "avx2";
        case Isa::avx512:
            return "avx512";
    }
    return "?";
}

std::optional<Isa> parse_isa(std::string_view text) {
    for (const Isa isa : kIsas)
        if (name(isa) == text) return isa;
    return std::nullopt;
}

bool cpu_supports(Isa isa) {
    static const std::array<bool, kIsas.size()> supported{detect(Isa::portable), detect(Isa::avx2),
                                                          detect(Isa::avx512)};
    return supported[static_cast<std::size_t>(isa)];
}

std::optional<Isa> environment_isa() {
    static const char* const text = std::getenv("ELTWISE_ISA");
    if (text == nullptr || *text == '\0') return std::nullopt;
    if (auto isa = parse_isa(text)) return isa;
    std::string names;
    for (const Isa isa : kIsas)
        names += (names.empty() ? "" : ", ") + std::string(name(isa));
    throw core::Error(core::ErrorKind::input,
                      std::string("ELTWISE_ISA=") + text + ": not a kernel set (" + names + ")");
}

Isa active_isa() {
    const int forced = g_override.load(std::memory_order_relaxed);
    if (forced >= 0) return static_cast<Isa>(forced);
    if (const auto isa = environment_isa()) {
        if (!cpu_supports(*isa))
            throw core::Error(core::ErrorKind::input,
                              "ELTWISE_ISA=" + std::string(name(*isa)) +
                                  ": this CPU does not run that kernel set");
        return *isa;
    }
    static const Isa best = cpu_supports(Isa::avx512) ? Isa::avx512
                            : cpu_supports(Isa::avx2) ? Isa::avx2
                                                      : Isa::portable;
    return best;
}

bool set_isa_override(std::optional<Isa> isa) {
    if (isa && !cpu_supports(*isa)) return false;
    g_override.store(isa ? static_cast<int>(*isa) : -1, std::memory_order_relaxed);
    return true;
}

}  // namespace optimized
