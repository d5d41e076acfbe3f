// `list`: the op-version table as text or JSON; also the backends, kernel sets and categories.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "backends/adapter_table.hpp"
#include "comparison/category.hpp"
#include "core/op_table.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "platform/gpu_facts.hpp"
#include "platform/host_platform.hpp"
#include "runner/backend_choice.hpp"
#include "runner/platform_choice.hpp"
#include "validator/commands.hpp"

namespace validator {
namespace {

std::string describe(const core::AttributeSpec& a) {
    std::string s = std::string(a.name) + ": " + std::string(core::name(a.type));
    s += a.default_value ? ", default " + std::string(*a.default_value) : ", optional";
    if (!a.allowed.empty()) {
        std::string values;
        for (auto v : a.allowed) {
            if (!values.empty()) values += "|";
            values += v;
        }
        s += ", one of " + values;
    }
    if (a.minimum) s += ", >= " + std::to_string(*a.minimum);
    if (!a.alias.empty()) s += ", alias " + std::string(a.alias);
    return s + " (" + std::string(a.note) + ")";
}

nlohmann::json to_json(const core::OpVersion& op) {
    nlohmann::json attributes = nlohmann::json::array();
    for (const auto& a : op.attributes) {
        nlohmann::json j{{"name", a.name}, {"type", core::name(a.type)}, {"note", a.note}};
        j["default"] = a.default_value ? nlohmann::json(*a.default_value) : nlohmann::json();
        if (!a.allowed.empty()) j["allowed"] = a.allowed;
        if (a.minimum) j["minimum"] = *a.minimum;
        if (!a.alias.empty()) j["alias"] = a.alias;
        attributes.push_back(j);
    }
    nlohmann::json types = nlohmann::json::array();
    for (core::ElementType t : op.element_types)
        types.push_back(core::name(t));
    return {{"id", op.id()},
            {"domain", op.domain},
            {"name", op.name},
            {"version", op.version},
            {"element_types", types},
            {"attributes", attributes},
            {"broadcast", core::name(op.broadcast)},
            {"division", core::name(op.rounding)}};
}

// Each version's allowed types next to what the backend claims: `+t` claimed although the spec
// does not allow it, `-t` allowed but not claimed.
int list_claims(const backends::Hello& hello, bool as_json) {
    std::vector<std::string> forms{std::string(backends::kRuntimeForm)};
    for (const std::string& f : hello.graph_forms)
        if (f != backends::kRuntimeForm) forms.push_back(f);
    nlohmann::json out = {
        {"backend", hello.name}, {"version", hello.version}, {"graph_forms", forms}, {"ops", {}}};
    if (!as_json) {
        std::cout << "backend " << hello.name << " " << hello.version << "\ngraph forms";
        for (const std::string& f : forms)
            std::cout << " " << f;
        std::cout << "\n";
    }
    for (const auto& op : core::op_versions()) {
        const auto it = hello.ops.find(op.id());
        const std::vector<core::ElementType> claimed =
            it == hello.ops.end() ? std::vector<core::ElementType>{} : it->second;
        std::string marks;
        for (core::ElementType t : op.element_types)
            if (!hello.claims(op.id(), t)) marks += " -" + std::string(core::name(t));
        for (core::ElementType t : claimed)
            if (!op.allows(t)) marks += " +" + std::string(core::name(t));
        out["ops"][op.id()] = {{"allowed", core::to_string(op.element_types)},
                               {"claimed", core::to_string(claimed)}};
        if (as_json) continue;
        std::cout << op.id() << "\n    spec allows: " << core::to_string(op.element_types)
                  << "\n    claimed:     "
                  << (claimed.empty() ? "nothing" : core::to_string(claimed)) << "\n";
        if (!marks.empty()) std::cout << "    difference: " << marks.substr(1) << "\n";
    }
    for (const auto& [op, types] : hello.ops)
        if (!core::find_op_version(op)) out["unknown_ops"].push_back(op);
    if (as_json) std::cout << out.dump(2) << "\n";
    return 0;
}

// One backend's line of `list --backends`: its hello when it starts, else why not.
nlohmann::json backend_status(const std::string& name, std::string_view library,
                              const runner::PlatformChoice& platform) {
    nlohmann::json j = {{"name", name}, {"library", library}};
    const std::string command = runner::adapter_command_line(name, platform);
    if (!command.empty()) j["command"] = command;
    try {
        const backends::Hello hello =
            runner::open_backend(runner::choose_backend(name, "", platform))->hello();
        std::size_t pairs = 0;
        for (const auto& [op, types] : hello.ops)
            pairs += types.size();
        j.update({{"available", true},
                  {"backend", hello.name},
                  {"version", hello.version},
                  {"claimed_pairs", pairs}});
        if (hello.gpu.present()) j["gpu"] = platform::describe(hello.gpu);
    } catch (const std::exception& e) {
        const std::string why = e.what();
        j.update({{"available", false}, {"why", why.substr(0, why.find('\n'))}});
    }
    return j;
}

// The built-in backends and the adapters, each started once to see whether it is available. On
// another platform than the host only the adapters that have it, each started there.
int list_backends(bool as_json, const runner::PlatformChoice& platform) {
    nlohmann::json all = nlohmann::json::array();
    for (std::string_view name : backends::builtin_backend_names())
        if (platform.name == "host")
            all.push_back(backend_status(std::string(name), "built in, in process", platform));
    for (const backends::Adapter& a : runner::adapters()) {
        if (!runner::runs_on(a, platform)) continue;
        all.push_back(backend_status(a.name, a.library, platform));
        if (!all.back()["available"]) all.back()["install"] = a.install;
    }
    if (as_json) {
        std::cout << all.dump(2) << "\n";
        return 0;
    }
    std::size_t width = 0;
    for (const nlohmann::json& b : all)
        width = std::max(width, b["name"].get<std::string>().size());
    const std::string indent(width + 2, ' ');
    for (const nlohmann::json& b : all) {
        std::cout << std::left << std::setw(static_cast<int>(indent.size()))
                  << b["name"].get<std::string>() << b["library"].get<std::string>() << "\n"
                  << indent;
        if (b["available"])
            std::cout << "available: " << b["backend"].get<std::string>() << " "
                      << b["version"].get<std::string>() << ", " << b["claimed_pairs"]
                      << " (op version, type) pairs claimed"
                      << (b.contains("gpu") ? ", GPU " + b["gpu"].get<std::string>() : "") << "\n";
        else
            std::cout << "unavailable: " << b["why"].get<std::string>() << "\n"
                      << indent << "install: " << b["install"].get<std::string>() << "\n";
    }
    return 0;
}

// "kernel sets run: portable avx2 avx512; skipped: none (x86_64 ... )": the tests of a set this
// CPU lacks are skipped, so a CI log says which kernels its verdicts cover.
int list_kernel_sets() {
    std::string run, skipped;
    for (const optimized::Isa isa : optimized::kIsas)
        (optimized::cpu_supports(isa) ? run : skipped) += " " + std::string(optimized::name(isa));
    const platform::Platform& host = platform::host();
    std::cout << "kernel sets run:" << run << "; skipped:" << (skipped.empty() ? " none" : skipped)
              << " (" << host.arch << " '" << host.model << "')\n";
    return 0;
}

// The one table of category names, for tools and tests outside C++ (docs/tests/categories_test.py).
int list_categories(bool as_json) {
    nlohmann::json names = nlohmann::json::array();
    for (const comparison::CategoryName& row : comparison::kCategoryNames)
        names.push_back(row.name);
    if (as_json) {
        std::cout << names.dump(2) << "\n";
        return 0;
    }
    for (const comparison::CategoryName& row : comparison::kCategoryNames)
        std::cout << row.name << "\n";
    return 0;
}

}  // namespace

int run_list(const ListOptions& options) {
    const bool as_json = options.as_json;
    // --platform read once, for --backends and --backend alike; a bad one is an error for every
    // form of `list`.
    const runner::PlatformChoice platform = runner::parse_platform(options.platform);
    if (options.kernel_sets) return list_kernel_sets();
    if (options.categories) return list_categories(as_json);
    if (options.backends) return list_backends(as_json, platform);
    if (!options.backend.empty() || !options.backend_cmd.empty())
        return list_claims(runner::open_backend(runner::choose_backend(
                                                    options.backend, options.backend_cmd, platform))
                               ->hello(),
                           as_json);
    if (as_json) {
        nlohmann::json table = nlohmann::json::array();
        for (const auto& op : core::op_versions())
            table.push_back(to_json(op));
        std::cout << table.dump(2) << "\n";
        return 0;
    }
    for (const auto& op : core::op_versions()) {
        std::cout << op.id() << "\n"
                  << "    element types: " << core::to_string(op.element_types) << "\n"
                  << "    broadcast:     " << core::name(op.broadcast) << "\n";
        if (op.arithmetic == core::Arithmetic::divide)
            std::cout << "    division:      " << core::name(op.rounding) << "\n";
        if (op.attributes.empty()) std::cout << "    attributes:    none\n";
        for (const auto& a : op.attributes)
            std::cout << "    attribute      " << describe(a) << "\n";
    }
    return 0;
}

}  // namespace validator
