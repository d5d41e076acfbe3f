#include "platform/gpu_facts.hpp"

#include <algorithm>
#include <cctype>

namespace platform {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

bool GpuFacts::has(std::string_view feature) const {
    return std::find(features.begin(), features.end(), feature) != features.end();
}

bool GpuFacts::named(std::string_view name) const {
    if (!present() || name.empty()) return false;
    const std::string wanted = lower(name);
    for (const std::string* text : {&vendor, &architecture, &device, &description})
        if (lower(*text).find(wanted) != std::string::npos) return true;
    return false;
}

std::string describe(const GpuFacts& gpu) {
    if (!gpu.present()) return "";
    std::string text = gpu.api;
    for (const std::string* part : {&gpu.vendor, &gpu.architecture, &gpu.device, &gpu.description})
        if (!part->empty()) text += " '" + *part + "'";
    if (gpu.fallback) text += " (fallback)";
    for (const std::string& f : gpu.features)
        text += " " + f;
    return text;
}

std::string short_name(const GpuFacts& gpu) {
    for (const std::string* part : {&gpu.architecture, &gpu.device, &gpu.description, &gpu.vendor})
        if (!part->empty()) return *part;
    return gpu.api;
}

}  // namespace platform
