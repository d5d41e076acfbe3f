#include "platform/gpu_facts.hpp"

#include <algorithm>
#include <cctype>

namespace platform {

namespace {

bool contains_ignoring_case(std::string_view text, std::string_view part) {
    const auto same = [](unsigned char x, unsigned char y) {
        return std::tolower(x) == std::tolower(y);
    };
    return std::search(text.begin(), text.end(), part.begin(), part.end(), same) != text.end();
}

}  // namespace

bool GpuFacts::has(std::string_view feature) const {
    return std::find(features.begin(), features.end(), feature) != features.end();
}

bool GpuFacts::named(std::string_view name) const {
    if (!present() || name.empty()) return false;
    for (const std::string* text : {&vendor, &architecture, &device, &description})
        if (contains_ignoring_case(*text, name)) return true;
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
