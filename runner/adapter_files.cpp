#include "runner/adapter_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/fnv_hash.hpp"
#include "runner/backend_choice.hpp"

namespace runner {
namespace {

std::optional<std::string> existing(const std::filesystem::path& path) {
    std::error_code error;
    return std::filesystem::is_regular_file(path, error) ? std::optional(path.string())
                                                         : std::nullopt;
}

// The profile's own path first, then each file it includes (an entry's source), once each.
std::vector<std::string> profile_files(const profiles::Profile& p) {
    std::vector<std::string> files{p.path};
    const std::filesystem::path dir = std::filesystem::path(p.path).parent_path();
    for (const std::string& include : p.includes)
        files.push_back((dir / include).lexically_normal().string());
    for (const profiles::Entry& e : p.entries)
        files.push_back(e.source);
    std::vector<std::string> unique;
    for (const std::string& f : files)
        if (!f.empty() && std::find(unique.begin(), unique.end(), f) == unique.end())
            unique.push_back(f);
    return unique;
}

}  // namespace

AdapterFiles adapter_files(const std::string& backend_name) {
    const std::string folder = adapter_folder(backend_name);
    if (folder.empty()) return {};
    const std::filesystem::path dir(folder);
    return {existing(dir / "profile.toml"), existing(dir / "expected.txt")};
}

void apply_adapter_files(RunOptions& o) {
    if (o.no_profile || !o.backend_cmd.empty()) return;
    const AdapterFiles own = adapter_files(o.backend);
    if (!o.profile && own.profile) {
        o.profile = own.profile;
        o.profile_from_adapter = true;
    }
    if (!o.expected && own.expected) {
        o.expected = own.expected;
        o.expected_from_adapter = true;
    }
}

std::string file_fnv1a64(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw core::Error(core::ErrorKind::input, "cannot read " + path);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(core::fnv1a64(bytes.str())));
    return hex;
}

std::vector<results::AppliedFile> applied_files(const RunOptions& o,
                                                const profiles::Profile* profile) {
    std::vector<results::AppliedFile> out;
    if (profile) {
        const std::vector<std::string> files = profile_files(*profile);
        for (std::size_t i = 0; i < files.size(); ++i)
            out.push_back({i == 0 ? results::FileRole::profile : results::FileRole::profile_include,
                           files[i], file_fnv1a64(files[i]), o.profile_from_adapter});
    }
    if (o.expected)
        out.push_back({results::FileRole::expected, *o.expected, file_fnv1a64(*o.expected),
                       o.expected_from_adapter});
    return out;
}

void check_applied_files(const std::vector<results::AppliedFile>& recorded) {
    for (const results::AppliedFile& f : recorded) {
        std::string now;
        try {
            now = file_fnv1a64(f.path);
        } catch (const core::Error&) {
            throw core::Error(core::ErrorKind::input,
                              "the run was judged by " + f.path + " (" +
                                  std::string(results::name(f.role)) +
                                  "), which cannot be read now: resuming would judge the rest "
                                  "by other rules; start a new run");
        }
        if (now != f.fnv1a64)
            throw core::Error(core::ErrorKind::input,
                              f.path + " (" + std::string(results::name(f.role)) +
                                  ") changed since the run began (fnv1a64 " + f.fnv1a64 +
                                  " then, " + now +
                                  " now): resuming would judge the rest by other rules; start a "
                                  "new run");
    }
}

}  // namespace runner
