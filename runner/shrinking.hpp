// Shrinking a failing case to a minimal one, re-running the backend on each candidate: a random
// case by a greedy walk down the generators' RapidCheck shrink tree, an exhaustive16 block by
// narrowing it to one failing pair.
#pragma once

#include <functional>
#include <optional>

#include "case_sources/exhaustive16_cases.hpp"
#include "case_sources/random_cases.hpp"
#include "runner/case_evaluation.hpp"

namespace runner {

struct ShrinkOutcome {
    std::string id;  // the smallest case that still fails; replayable with `run --case`
    core::CaseRecord data;
    CaseResult result;
    int tries = 0;  // backend calls spent
};

// A candidate fails "the same way" when it ends with the same status and, for FAILED, shares a
// mismatch category with the original. Takes the first such shrink at each level, within
// `budget` backend calls. nullopt when no shrink fails the same way.
std::optional<ShrinkOutcome> shrink_failure(
    const case_sources::RandomCaseKey& key, const CaseResult& original, int budget,
    const std::function<CaseResult(const core::CaseRecord&)>& run);

// A block that failed: the pair of its first mismatch when that pair alone fails the same way;
// else (and for a crash or hang, which name no element) the block halved, B's rows before A's
// columns, keeping a half that fails the same way, within `budget` backend calls.
std::optional<ShrinkOutcome> narrow_block_failure(
    const case_sources::Exhaustive16Key& key, const CaseResult& original, int budget,
    const std::function<CaseResult(const core::CaseRecord&)>& run);

bool fails_the_same_way(const CaseResult& original, const CaseResult& candidate);

}  // namespace runner
