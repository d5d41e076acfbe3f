// Shrinking a failing random case to a minimal one: a greedy walk down the generators'
// RapidCheck shrink tree, re-running the backend on each candidate.
#pragma once

#include <functional>
#include <optional>

#include "validator/case_evaluation.hpp"
#include "validator/random_cases.hpp"

namespace validator {

struct ShrinkOutcome {
    RandomCaseKey key;  // with the shrink path of the smallest case that still fails
    CaseData data;
    CaseResult result;
    int tries = 0;  // backend calls spent
};

// A candidate fails "the same way" when it ends with the same status and, for FAILED, shares a
// mismatch category with the original. Takes the first such shrink at each level, within
// `budget` backend calls. nullopt when no shrink fails the same way.
std::optional<ShrinkOutcome> shrink_failure(const RandomCaseKey& key, const CaseResult& original,
                                            int budget,
                                            const std::function<CaseResult(const CaseData&)>& run);

bool fails_the_same_way(const CaseResult& original, const CaseResult& candidate);

}  // namespace validator
