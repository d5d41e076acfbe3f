// The platform an adapter runs on (run --platform): the host; the host with the library capped
// to an ISA through its own knob; an emulated arm64 CPU, inside the root filesystem of
// scripts/install_arm64.sh under qemu-aarch64; or an emulated x86-64 CPU model under qemu-x86_64
// (docs/platforms.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/adapter_table.hpp"
#include "platform/host_platform.hpp"

namespace runner {

struct PlatformChoice {
    std::string name;     // "host", "avx2", "arm64-neoverse-n1", "x86-EPYC-Milan"
    std::string isa_cap;  // "avx2" for a capped host
    std::string arch;     // an emulated CPU's architecture ("aarch64", "x86_64"); "" on the host
    std::string cpu;      // its QEMU CPU model ("max", "neoverse-n1", "EPYC-Milan")
    bool emulated() const { return !arch.empty(); }
    // What --timeout is multiplied by there: qemu-user runs these libraries 6-8 times slower
    // than the host (docs/platforms.md), and a slow case is not a hung one.
    double timeout_factor() const { return emulated() ? 10.0 : 1.0; }
};

// "" and "host", "avx2", "arm64" (QEMU's default model, max), "arm64-<QEMU CPU model>" and
// "x86-<QEMU CPU model>".
// Throws std::invalid_argument naming the platforms for anything else.
PlatformChoice parse_platform(std::string_view text);

// The platform facts of a run there: the host's, capped, or the emulated CPU's as a probe run on
// it reports them. Throws core::Error(input) for a cap above the host's ISA, and
// backends::BackendStartError when the arm64 root filesystem is missing or the probe fails.
platform::Platform platform_facts(const PlatformChoice& choice);

// What an adapter's command line is prefixed with to run there (nothing on the host), and the
// paths its placeholders take there. check_adapter_platform throws std::invalid_argument for an
// adapter whose manifest does not list the platform; check_platform_installed throws
// backends::BackendStartError when the platform's install step has not run.
std::vector<std::string> platform_launcher(const PlatformChoice& choice);
// Whether the adapter has the platform: every one the host and an emulated x86 CPU, those with
// an ISA knob for it a cap, those whose manifest lists arm64 an emulated arm64 CPU.
bool runs_on(const backends::Adapter& adapter, const PlatformChoice& choice);
void check_adapter_platform(const backends::Adapter& adapter, const PlatformChoice& choice);
void check_platform_installed(const PlatformChoice& choice);
backends::AdapterPaths paths_on(const PlatformChoice& choice, backends::AdapterPaths host_paths);

}  // namespace runner
