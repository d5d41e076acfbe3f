// Which kernel sets a test process checks. CMake registers the ISA-sensitive tests once per ISA
// with ELTWISE_ISA set (like Highway's per-target tests); on a CPU without that ISA every test
// of the process is skipped, not passed. Without ELTWISE_ISA, every ISA the CPU runs.
#pragma once

#include <vector>

#include "optimized/cpu_dispatch.hpp"

namespace optimized::testing {

std::vector<Isa> isas_under_test();

}  // namespace optimized::testing
