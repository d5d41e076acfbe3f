// OpenMP's idle threads in a validating program sleep rather than spin, unless the user set
// OMP_WAIT_POLICY (to a value). libgomp's idle workers spin for milliseconds after each parallel
// region (GOMP_SPINCOUNT), taking the core that a backend's process, running beside the validator,
// computes on: perf put a quarter of an exhaustive16 run's samples through the host in that spin.
#pragma once

namespace runner {

// libgomp reads the policy once, in its constructor, before main(), from the environment the
// process started with (libc's own start-up resets the environment after any earlier change).
// So when the policy is unset, this sets it and executes the program again (/proc/self/exe,
// the same arguments); it returns only when the policy was set already or the exec failed.
// Call it first thing in main().
void restart_with_passive_openmp(char** argv);

}  // namespace runner
