// `random` cases: drawn from the property suite's generators, one RapidCheck stream per
// (combination, seed, n), so that an id alone regenerates its case, shrunk or not.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "case_sources/run_case.hpp"
#include "generators/property_case.hpp"

namespace case_sources {

// Outputs of random cases stay at most this large (2^20 elements).
inline constexpr std::int64_t kMaxRandomElements = std::int64_t{1} << 20;

struct RandomCaseKey {
    const generators::Combination* combination = nullptr;
    std::uint64_t seed = 0;
    std::int64_t n = 0;
    std::vector<std::size_t> shrink_path;  // indices into successive shrink streams
};

// "random:openvino.Divide-1:i32:pdpd:floor:seed=42:n=3", with ":shrink=0.4.1" when shrunk.
std::string random_case_id(const RandomCaseKey& key);

// nullopt when `id` is not a random case id; throws std::invalid_argument naming the part that
// is wrong when it is one but malformed or names no combination.
std::optional<RandomCaseKey> parse_random_case_id(std::string_view id);

// The generator's shrink tree for the key's (combination, seed, n), at its root.
rc::Shrinkable<generators::Case> random_case_tree(const RandomCaseKey& key);

// The tree's node at the end of the key's shrink path, where shrinking it goes on.
rc::Shrinkable<generators::Case> random_case_node(const RandomCaseKey& key);
// The case at the end of the key's shrink path. Throws std::invalid_argument when the path
// leaves the tree (an id from another version of the generators).
generators::Case random_case(const RandomCaseKey& key);

core::CaseRecord case_data(const generators::Case& c);

// Every combination's cases n = 0 .. count-1 (only n = 0 where `claimed` is false: that case
// ends UNSUPPORTED without being built).
std::vector<PlannedCase> plan_random_cases(std::uint64_t seed, int count,
                                           const std::function<bool(const PlannedCase&)>& claimed);

}  // namespace case_sources
