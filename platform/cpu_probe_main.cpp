// eltwise-cpu-probe: prints the CPU this process runs on as platform::host() reads it, in the
// format of platform/arm64_features.py (`arch <name>`, `features <names...>`). Run under
// qemu-x86_64 by `run --platform x86-CPU`, it gives the emulated CPU model's features, read
// through CPUID exactly as the libraries read them.
#include <iostream>

#include "platform/host_platform.hpp"

int main() {
    const platform::Platform& p = platform::host();
    std::cout << "arch " << p.arch << "\nfeatures";
    for (const std::string& f : p.features)
        std::cout << ' ' << f;
    std::cout << "\n";
}
