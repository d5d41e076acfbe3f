// The GPU a backend's code ran on, as its hello states it (backends/PROTOCOL.md section 9, item
// 20): a verdict from a GPU path holds on that adapter, and on a software one (SwiftShader, PoCL)
// it is a verdict on the library's shaders and casts, not on a hardware GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace platform {

struct GpuFacts {
    std::string api;  // "webgpu", "webgl", "opencl", "vulkan"; empty: no GPU
    std::string vendor, architecture, device, description;
    bool fallback = false;              // a fallback (software) adapter, as the API says
    std::vector<std::string> features;  // as the API names them, sorted: "shader-f16"
    bool present() const { return !api.empty(); }
    bool has(std::string_view feature) const;
    // `name` (case-insensitive) occurs in the vendor, architecture, device or description:
    // "swiftshader" names WebGPU's architecture and WebGL's renderer string alike.
    bool named(std::string_view name) const;
    bool operator==(const GpuFacts&) const = default;
};

// "webgpu google swiftshader (fallback) shader-f16 ...": one line for summaries, "" for none.
std::string describe(const GpuFacts& gpu);

// The shortest name that tells GPUs apart in a report column: the architecture, else the
// device, else the description, else the vendor.
std::string short_name(const GpuFacts& gpu);

}  // namespace platform
