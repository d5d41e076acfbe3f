// Which instruction set the kernels use: detected at run time, overridable for tests.
#pragma once

#include <optional>

namespace optimized {

enum class Isa { portable, avx2 };

// True when the CPU runs AVX2, F16C and FMA code.
bool cpu_has_avx2();

// The ISA in use: the override if one is set, else the best one the CPU supports.
Isa active_isa();

// Forces an ISA (tests run every kernel set in turn); nullopt restores detection. Forcing avx2
// on a CPU without it is ignored.
void set_isa_override(std::optional<Isa> isa);

}  // namespace optimized
