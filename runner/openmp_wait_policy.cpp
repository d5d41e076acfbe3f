#include "runner/openmp_wait_policy.hpp"

#include <unistd.h>

#include <cstdlib>

namespace runner {

void restart_with_passive_openmp(char** argv) {
    // An empty value is no policy to libgomp ("Invalid value"): it spins then too.
    const char* chosen = std::getenv("OMP_WAIT_POLICY");
    if (chosen && *chosen) return;
    if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    ::execv("/proc/self/exe", argv);
}

}  // namespace runner
