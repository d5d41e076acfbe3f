// An adapter's own knowledge, applied by default (issue 44): `run --backend NAME` judges by the
// profile.toml and expected.txt in the adapter's folder (the source tree's, or the installed
// copy's) unless --profile or --expected names another file, or --no-profile says neither. The
// run line records each file that judged the run with its hash (results::AppliedFile), and
// `run --resume` goes on only with the same files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profiles/backend_profile.hpp"
#include "results/results_line.hpp"
#include "runner/run_options.hpp"

namespace runner {

// The files of the adapter's folder that exist; none for a built-in backend or an unknown name.
struct AdapterFiles {
    std::optional<std::string> profile, expected;
};
AdapterFiles adapter_files(const std::string& backend_name);

// Sets o.profile and o.expected to the adapter's own files where no option named one, unless
// o.no_profile; marks which it set (RunOptions::profile_from_adapter, expected_from_adapter).
void apply_adapter_files(RunOptions& o);

// The files that judge the run: the profile, the files it includes, the expectations. Throws
// core::Error(input) for a file that cannot be read.
std::vector<results::AppliedFile> applied_files(const RunOptions& o,
                                                const profiles::Profile* profile);

// For `run --resume`: throws core::Error(input) naming a recorded file that is gone or whose
// hash is no longer the recorded one (the rest of the run would be judged by another file).
void check_applied_files(const std::vector<results::AppliedFile>& recorded);

// FNV-1a 64 of the file's bytes as 16 lowercase hex digits (core/fnv_hash.hpp).
std::string file_fnv1a64(const std::string& path);

}  // namespace runner
