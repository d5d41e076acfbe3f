#include "runner/openmp_wait_policy.hpp"

#include <unistd.h>

#include <cstdlib>

namespace runner {

void restart_with_passive_openmp(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY")) return;
    if (::setenv("OMP_WAIT_POLICY", "passive", 0) != 0) return;
    ::execv("/proc/self/exe", argv);
}

}  // namespace runner
