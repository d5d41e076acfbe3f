#include "platform/host_platform.hpp"

#include "core/error.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <array>
#include <sstream>

#include "cpu_features_macros.h"
#if defined(CPU_FEATURES_ARCH_X86)
#include <cpuid.h>

#include "cpuinfo_x86.h"
#elif defined(CPU_FEATURES_ARCH_AARCH64)
#include "cpuinfo_aarch64.h"
#endif

namespace platform {
namespace {

// The arm64 features that libraries select kernels by (Linux hwcap names, as cpu_features and
// /proc/cpuinfo spell them): listed here so that an x86 build still knows them as names.
constexpr std::array<std::string_view, 11> kArm64Features = {
    "asimd", "asimdhp", "asimddp", "fphp",    "bf16", "i8mm",
    "sve",   "sve2",    "svebf16", "svei8mm", "sme"};
// Two x86 features that the Debian 12 cpu_features (0.7.0) predates, read from CPUID.
constexpr std::array<std::string_view, 2> kX86Extra = {"avx512_fp16", "avx_vnni"};

std::string os_name() {
    utsname u{};
    if (::uname(&u) != 0) return "unknown";
    return std::string(u.sysname) + " " + u.release;
}

#if defined(CPU_FEATURES_ARCH_X86)
Platform read_cpu() {
    using namespace cpu_features;
    const X86Info info = GetX86Info();
    Platform p;
    p.arch = "x86_64";
    p.vendor = info.vendor;
    p.model = info.brand_string;
    for (int f = 0; f < X86_LAST_; ++f)
        if (GetX86FeaturesEnumValue(&info.features, static_cast<X86FeaturesEnum>(f)))
            p.features.emplace_back(GetX86FeaturesEnumName(static_cast<X86FeaturesEnum>(f)));
    // CPUID leaf 7: subleaf 0 EDX bit 23 is AVX512-FP16, subleaf 1 EAX bit 4 is AVX-VNNI. Their
    // register state is that of AVX-512 and AVX, which cpu_features checks against XCR0.
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (p.has("avx512f") && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 23 & 1))
        p.features.emplace_back("avx512_fp16");
    if (p.has("avx") && __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a >> 4 & 1))
        p.features.emplace_back("avx_vnni");
    return p;
}
#elif defined(CPU_FEATURES_ARCH_AARCH64)
Platform read_cpu() {
    using namespace cpu_features;
    const Aarch64Info info = GetAarch64Info();
    Platform p;
    p.arch = "aarch64";
    p.vendor = std::to_string(info.implementer);
    p.model = "implementer " + std::to_string(info.implementer) + " part " +
              std::to_string(info.part) + " variant " + std::to_string(info.variant);
    for (int f = 0; f < AARCH64_LAST_; ++f)
        if (GetAarch64FeaturesEnumValue(&info.features, static_cast<Aarch64FeaturesEnum>(f)))
            p.features.emplace_back(
                GetAarch64FeaturesEnumName(static_cast<Aarch64FeaturesEnum>(f)));
    return p;
}
#else
Platform read_cpu() {
    Platform p;
    p.arch = "unknown";
    return p;
}
#endif

std::vector<std::string> all_known() {
    std::vector<std::string> names(kArm64Features.begin(), kArm64Features.end());
    names.insert(names.end(), kX86Extra.begin(), kX86Extra.end());
#if defined(CPU_FEATURES_ARCH_X86)
    for (int f = 0; f < cpu_features::X86_LAST_; ++f)
        names.emplace_back(
            cpu_features::GetX86FeaturesEnumName(static_cast<cpu_features::X86FeaturesEnum>(f)));
#endif
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace

Platform capped(const Platform& p, std::string_view isa) {
    if (isa != "avx2")
        throw core::Error(core::ErrorKind::input,
                          "unknown ISA cap '" + std::string(isa) + "' (avx2)");
    if (!p.has("avx2"))
        throw core::Error(core::ErrorKind::input,
                          "ISA cap avx2 is above this CPU's ISA (" + p.model + " has no AVX2)");
    Platform out = p;
    out.isa_cap = isa;
    std::erase_if(out.features, [](const std::string& f) {
        return f.starts_with("avx512") || f.starts_with("amx") || f == "avx_vnni";
    });
    return out;
}

Platform emulated(std::string_view probe_output, const std::string& cpu_model,
                  const std::string& emulator) {
    Platform p;
    p.os = host().os;
    p.vendor = "emulated";
    p.model = cpu_model;
    p.emulator = emulator;
    std::istringstream lines{std::string(probe_output)};
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string key, word;
        words >> key;
        if (key == "arch") words >> p.arch;
        while (key == "features" && words >> word) {
            if (!is_known_feature(word))
                throw core::Error(core::ErrorKind::input,
                                  "the emulated CPU reports an unknown feature '" + word + "'");
            p.features.push_back(word);
        }
    }
    if (p.arch.empty())
        throw core::Error(core::ErrorKind::input,
                          "the emulated CPU's probe printed no arch line: '" +
                              std::string(probe_output.substr(0, 200)) + "'");
    std::sort(p.features.begin(), p.features.end());
    return p;
}

bool Platform::has(std::string_view feature) const {
    return std::find(features.begin(), features.end(), feature) != features.end();
}

const Platform& host() {
    static const Platform p = [] {
        Platform cpu = read_cpu();
        cpu.os = os_name();
        std::sort(cpu.features.begin(), cpu.features.end());
        return cpu;
    }();
    return p;
}

const std::vector<std::string>& known_features() {
    static const std::vector<std::string> names = all_known();
    return names;
}

bool is_known_feature(std::string_view name) {
    const auto& k = known_features();
    return std::binary_search(k.begin(), k.end(), name);
}

std::string describe(const Platform& p) {
    std::string text = p.arch + " " + p.vendor + " '" + p.model + "'";
    for (const std::string& f : p.features)
        text += " " + f;
    if (!p.isa_cap.empty()) text += " (capped to " + p.isa_cap + ")";
    if (!p.emulator.empty()) text += " (emulated: " + p.emulator + ")";
    text += " (" + p.os + ")";
    return p.gpu.present() ? text + " GPU " + describe(p.gpu) : text;
}

}  // namespace platform
