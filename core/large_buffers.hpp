// Process-wide allocation tuning for programs that make many large tensors.
#pragma once

namespace core {

// glibc serves allocations above 32 MiB with fresh mmap()s and returns them to the kernel on
// free, so every 2^24-element case pays for faulting in zeroed pages again (measured on these
// VMs: 200-850 ms per 64 MiB). Keeping such blocks in the heap lets the next case reuse pages
// that are already mapped; one arena for all threads keeps a block that a helper thread
// allocates (a large case's expected output, computed while the backend runs) in the same heap.
// Call once at start-up.
void reuse_large_buffers();

}  // namespace core
