#include "backends/adapter_table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "backends/command_line.hpp"
#include "core/error.hpp"

namespace backends {
namespace {

[[noreturn]] void bad_manifest(const std::string& where, const std::string& what) {
    throw core::Error(core::ErrorKind::input, where + ": " + what);
}

// The member `key` of `object` as a T; `required` members must be there.
template <class T>
T member(const nlohmann::json& object, const char* key, const std::string& where, bool required,
         T fallback = {}) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (required) bad_manifest(where, std::string("has no \"") + key + "\"");
        return fallback;
    }
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception&) {
        bad_manifest(where, std::string("\"") + key + "\" has the wrong type");
    }
}

// An integer member in [lo, hi]; nlohmann's get<int> would cast a float or a wider integer, UB when
// out of range.
int int_member(const nlohmann::json& object, const char* key, const std::string& where, int lo,
               int hi) {
    const auto it = object.find(key);
    if (it == object.end()) bad_manifest(where, std::string("has no \"") + key + "\"");
    if (!it->is_number_integer())
        bad_manifest(where, std::string("\"") + key + "\" is not an integer");
    // Non-negative JSON integers are unsigned in nlohmann; compare them as such.
    const bool in_range = it->is_number_unsigned()
                              ? it->get<std::uint64_t>() >= std::uint64_t(std::max(lo, 0)) &&
                                    it->get<std::uint64_t>() <= std::uint64_t(hi)
                              : it->get<std::int64_t>() >= lo && it->get<std::int64_t>() <= hi;
    if (!in_range)
        bad_manifest(where, std::string("\"") + key + "\" is outside [" + std::to_string(lo) +
                                ", " + std::to_string(hi) + "]");
    return static_cast<int>(it->get<std::int64_t>());
}

void check_keys(const nlohmann::json& object, std::initializer_list<std::string_view> known,
                const std::string& where) {
    for (const auto& [key, value] : object.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
            bad_manifest(where, "unknown key \"" + key + "\"");
}

SmokeSettings smoke_settings(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) bad_manifest(where, "\"smoke\" is not an object");
    check_keys(j, {"cases", "count", "seed", "isa_caps", "ops", "dtypes"}, where + " (smoke)");
    SmokeSettings s{member<std::string>(j, "cases", where, true),
                    int_member(j, "count", where, 1, std::numeric_limits<int>::max()),
                    int_member(j, "seed", where, 0, std::numeric_limits<int>::max()),
                    member<std::vector<std::string>>(j, "isa_caps", where, false),
                    member<std::string>(j, "ops", where, false),
                    member<std::string>(j, "dtypes", where, false)};
    return s;
}

// "isa_cap_env": a variable whose value is the cap in capitals, or {cap: {variable: value}}.
std::map<std::string, std::map<std::string, std::string>> isa_cap_settings(
    const nlohmann::json& j, const std::string& where) {
    const auto it = j.find("isa_cap_env");
    if (it == j.end()) return {};
    if (it->is_string()) return {{"avx2", {{it->get<std::string>(), "AVX2"}}}};
    auto caps = member<std::map<std::string, std::map<std::string, std::string>>>(j, "isa_cap_env",
                                                                                  where, false);
    for (const auto& [cap, settings] : caps)
        if (cap != "avx2" || settings.empty())
            bad_manifest(where, "\"isa_cap_env\" has cap \"" + cap +
                                    "\"; known: avx2, with at least one variable");
    return caps;
}

}  // namespace

Adapter parse_manifest(std::string_view text, const std::string& folder, const std::string& where) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e999
        bad_manifest(where, std::string("is not JSON: ") + e.what());
    }
    if (!j.is_object()) bad_manifest(where, "is not a JSON object");
    check_keys(j,
               {"name", "library", "version", "command", "install", "isa_cap_env", "platforms",
                "smoke", "compile_latency_seconds"},
               where);
    Adapter a{member<std::string>(j, "name", where, true),
              member<std::string>(j, "library", where, true),
              member<std::string>(j, "version", where, true),
              member<std::string>(j, "command", where, true),
              member<std::string>(j, "install", where, true),
              isa_cap_settings(j, where),
              member<std::vector<std::string>>(j, "platforms", where, false),
              {},
              j.contains("compile_latency_seconds")
                  ? int_member(j, "compile_latency_seconds", where, 0, 3600)
                  : 0};
    for (const std::string& p : a.platforms)
        if (p != "arm64") bad_manifest(where, "unknown platform \"" + p + "\" (arm64)");
    if (a.name != folder) bad_manifest(where, "names \"" + a.name + "\", not its folder " + folder);
    try {
        if (split_command_line(a.command).empty()) bad_manifest(where, "has an empty \"command\"");
    } catch (const std::invalid_argument& e) {
        bad_manifest(where, std::string("\"command\": ") + e.what());
    }
    if (j.contains("smoke")) a.smoke = smoke_settings(j["smoke"], where);
    return a;
}

std::vector<Adapter> read_adapters(const std::filesystem::path& dir) {
    std::vector<Adapter> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::filesystem::path manifest = entry.path() / "adapter.json";
        if (!std::filesystem::is_regular_file(manifest)) continue;
        std::ifstream in(manifest);
        std::stringstream text;
        text << in.rdbuf();
        if (!in) bad_manifest(manifest.string(), "cannot be read");
        found.push_back(
            parse_manifest(text.str(), entry.path().filename().string(), manifest.string()));
    }
    std::sort(found.begin(), found.end(),
              [](const Adapter& x, const Adapter& y) { return x.name < y.name; });
    return found;
}

std::string adapter_command(const Adapter& adapter, const AdapterPaths& paths) {
    const std::string here = paths.adapters + "/" + adapter.name;
    const std::pair<std::string_view, const std::string*> fills[] = {
        {"{python}", &paths.python},
        {"{venv_python}", &paths.venv_python},
        {"{node}", &paths.node},
        {"{host}", &paths.host},
        {"{lib}", &paths.lib},
        {"{adapters}", &paths.adapters},
        {"{here}", &here}};
    std::string command(adapter.command);
    for (const auto& [key, value] : fills) {
        const std::string word = shell_quoted(*value);  // paths with spaces stay one word
        for (std::size_t at = command.find(key); at != std::string::npos;
             at = command.find(key, at + word.size()))
            command.replace(at, key.size(), word);
    }
    return command;
}

std::vector<std::string> adapter_environment(const AdapterPaths& paths) {
    const char* given = std::getenv("PYTHONPATH");
    return {"PYTHONPATH=" + paths.python_kit + (given && *given ? ":" + std::string(given) : "")};
}

}  // namespace backends
