// The platform a verdict holds on: OS, architecture, CPU vendor and model, and the CPU features
// that libraries use to pick kernels. Read through cpu_features (Debian libcpu-features-dev),
// never by parsing /proc/cpuinfo.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "platform/gpu_facts.hpp"

namespace platform {

struct Platform {
    std::string os;    // "Linux 6.1.0-..."
    std::string arch;  // "x86_64", "aarch64"
    std::string vendor;
    std::string model;                  // the CPU's brand string, or its part number
    std::vector<std::string> features;  // sorted, lower case: "avx2", "avx512_bf16", "sve"
    std::string isa_cap;  // "avx2": the library was capped to that ISA; features above it removed
    std::string name;     // the run's --platform: "host", "avx2", "x86-EPYC-Milan", "arm64-max"
    // "qemu-aarch64 version 7.2.22, user mode, -cpu neoverse-n1": the CPU is emulated, and `model`
    // and `features` are the emulated CPU's, as the programs inside saw them.
    std::string emulator;
    GpuFacts gpu;  // from the backend's hello, once it has started; none for a CPU backend
    bool has(std::string_view feature) const;
};

// The platform as a library capped to `isa` sees it (only "avx2" so far: no AVX-512, AMX,
// AVX-VNNI). Throws core::Error(input) for an unknown cap, or one the CPU does not reach.
Platform capped(const Platform& p, std::string_view isa);

// An emulated CPU's platform from its probe's output (platform/arm64_features.py on arm64,
// eltwise-cpu-probe on x86-64: `arch NAME` and `features NAME...` lines), the CPU model the
// emulator was given and its description; the OS is the host's (user-mode emulation runs on its
// kernel). Throws core::Error(input) for output without an arch line, or naming a feature that
// is_known_feature does not know.
Platform emulated(std::string_view probe_output, const std::string& cpu_model,
                  const std::string& emulator);

// The machine this process runs on (read once).
const Platform& host();

// Every feature name a platform may list on any architecture: a profile's condition naming
// another is an error (a typo would make its entry silently inert).
bool is_known_feature(std::string_view name);
const std::vector<std::string>& known_features();

// "x86_64 GenuineIntel 'Intel(R) Xeon(R) Processor' avx2 avx512f ... (Linux 6.1)": one line
// for summaries, followed by " GPU webgpu ..." when a backend named its GPU.
std::string describe(const Platform& p);

}  // namespace platform
