// The case sources of `eltwise-validate run`, each a deterministic list of planned cases.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "case_sources/run_case.hpp"

namespace case_sources {

struct SourceOptions {
    std::uint64_t seed = 0;
    int count = 10;                      // random cases per combination; near misses per rule
    std::vector<std::string> onnx_dirs;  // node-test dirs (or dirs of them) besides Debian's
    // Whether the backend claims the case's (op version, dtype); random cases are planned in
    // full only for claimed combinations.
    std::function<bool(const PlannedCase&)> claimed = [](const PlannedCase&) { return true; };
};

// Every source, and those run when --cases is not given (all but exhaustive16).
const std::vector<std::string_view>& source_names();
const std::vector<std::string_view>& default_source_names();
// Throws std::invalid_argument naming `what` (an option), the unknown name and the known ones.
void check_source_name(std::string_view name, std::string_view what = "case source");

// Throws std::invalid_argument for an unknown source name.
std::vector<PlannedCase> plan_source(std::string_view source, const SourceOptions& options);

// The one case with this id (its source is the id's first part); nullopt when there is none.
// An id ending in ":pairs=FIRST-LAST" is that case narrowed to those output elements
// (pair_narrowing.hpp).
std::optional<PlannedCase> plan_case(std::string_view id, const SourceOptions& options);

// The sources, one file each.
std::vector<PlannedCase> plan_spec_cases(bool edge_tables);  // spec, or edge
std::vector<PlannedCase> plan_invalid_cases(std::uint64_t seed, int count);
std::vector<PlannedCase> plan_exhaustive8_cases();
std::vector<PlannedCase> plan_onnx_cases(const std::vector<std::string>& extra_dirs);

}  // namespace case_sources
