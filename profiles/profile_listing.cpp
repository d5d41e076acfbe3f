#include "profiles/profile_listing.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include "core/element_type.hpp"

namespace profiles {
namespace {

template <class List, class Name>
std::string joined(const List& list, Name name, const char* none) {
    std::string text;
    for (const auto& item : list)
        text += (text.empty() ? "" : ", ") + std::string(name(item));
    return text.empty() ? none : text;
}

const auto as_is = [](const std::string& s) { return s; };

bool matches(const Entry& e, const core::OpVersion& op) {
    const std::string id = op.id();
    return std::any_of(e.scope.ops.begin(), e.scope.ops.end(), [&](const std::string& p) {
        return ::fnmatch(p.c_str(), id.c_str(), 0) == 0;
    });
}

std::string condition_text(const Condition& c) {
    std::vector<std::string> parts;
    if (!c.arch.empty()) parts.push_back("arch " + c.arch);
    if (!c.cpu_has.empty()) parts.push_back("cpu has " + joined(c.cpu_has, as_is, ""));
    if (!c.cpu_lacks.empty()) parts.push_back("cpu lacks " + joined(c.cpu_lacks, as_is, ""));
    if (!c.emulator.empty()) parts.push_back("under " + c.emulator);
    if (!c.gpu.empty()) parts.push_back("gpu " + c.gpu);
    if (!c.gpu_has.empty()) parts.push_back("gpu has " + joined(c.gpu_has, as_is, ""));
    if (!c.gpu_lacks.empty()) parts.push_back("gpu lacks " + joined(c.gpu_lacks, as_is, ""));
    return parts.empty() ? "every platform" : joined(parts, as_is, "");
}

std::string when_text(InputsWhen w) {
    switch (w) {
        case InputsWhen::any:
            return "any inputs";
        case InputsWhen::int_min_by_minus_one:
            return "int_min_by_minus_one";
        case InputsWhen::zero_divisor:
            return "zero_divisor";
        case InputsWhen::empty_output:
            return "empty_output";
        case InputsWhen::traps_in_i32:
            return "traps_in_i32";
        case InputsWhen::int32_min_by_minus_one:
            return "int32_min_by_minus_one";
        case InputsWhen::shape_only:
            return "shape_only";
    }
    return "?";
}

std::string entry_text(const Entry& e) {
    std::string text = e.name + "  (" + e.source + ":" + std::to_string(e.line) + ")\n";
    text += "  finding     " + e.finding + "\n";
    text += "  ops         " + joined(e.scope.ops, as_is, "") + "\n";
    text += scope_text(e);
    text += "  broadcast   " +
            joined(
                e.scope.broadcast, [](core::BroadcastRule r) { return core::name(r); }, "any") +
            "\n";
    text += "  graph forms " + joined(e.scope.graph_forms, as_is, "any") + "\n";
    text += "  condition   " + condition_text(e.condition) + "\n";
    if (e.status)
        text += "  status      " + std::string(results::name(*e.status)) + " when " +
                when_text(e.when) + "\n";
    else
        text += "  behaviours  " + joined(e.behaviours, as_is, "") + "\n";
    return text;
}

}  // namespace

std::string scope_text(const Entry& e) {
    std::string text;
    for (const core::OpVersion& op : core::op_versions()) {
        if (!matches(e, op)) continue;
        const bool multiply = op.arithmetic == core::Arithmetic::multiply;
        std::vector<core::ElementType> types;
        for (core::ElementType t : op.element_types)
            if ((e.scope.dtypes.empty() || std::find(e.scope.dtypes.begin(), e.scope.dtypes.end(),
                                                     t) != e.scope.dtypes.end()) &&
                (e.status || behaviours::affects(e.model, t, multiply)))
                types.push_back(t);
        text += "  scope       " + op.id() + ": " +
                joined(
                    types, [](core::ElementType t) { return core::name(t); }, "none") +
                "\n";
    }
    return text;
}

std::string profile_listing(const Profile& p) {
    std::string text = "profile " + p.path + "\n";
    const std::filesystem::path dir = std::filesystem::path(p.path).parent_path();
    for (const std::string& include : p.includes)
        text += "includes " + (dir / include).lexically_normal().string() + "\n";
    text += std::to_string(p.entries.size()) + " entries\n";
    for (const Entry& e : p.entries)
        text += "\n" + entry_text(e);
    return text;
}

}  // namespace profiles
