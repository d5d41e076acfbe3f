// Which instruction set the kernels use: detected at run time, overridable for tests and the
// benchmark.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace optimized {

// Kernel sets, weakest first. avx512 needs F, BW, DQ, VL and VBMI (Ice Lake, Zen 4 and later).
enum class Isa { portable, avx2, avx512 };
inline constexpr std::array<Isa, 3> kIsas{Isa::portable, Isa::avx2, Isa::avx512};

std::string_view name(Isa isa);
// "portable", "avx2" or "avx512"; nullopt for anything else.
std::optional<Isa> parse_isa(std::string_view text);

// Whether this CPU runs the kernel set (portable: always).
bool cpu_supports(Isa isa);

// The kernel set named by the environment variable ELTWISE_ISA, read once; nullopt when unset
// or empty. Throws core::Error(input) for a name that is no Isa.
std::optional<Isa> environment_isa();

// The ISA in use: the override if one is set, else ELTWISE_ISA if set, else the best one the CPU
// supports. Throws core::Error(input) when ELTWISE_ISA names a kernel set this CPU lacks.
Isa active_isa();

// Forces an ISA (tests and the benchmark run every kernel set in turn); nullopt restores
// detection. Returns false, and changes nothing, for an ISA this CPU does not run.
bool set_isa_override(std::optional<Isa> isa);

}  // namespace optimized
