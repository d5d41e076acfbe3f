// Shrinking a failing case to a minimal one, re-running the backend on each candidate: any case
// by narrowing it to the pairs of output elements that fail (case_sources/pair_narrowing.hpp),
// a random case by a greedy walk down the generators' RapidCheck shrink tree, an exhaustive16
// block by narrowing it to one failing pair. Within a budget of backend calls and of seconds.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "case_sources/exhaustive16_cases.hpp"
#include "case_sources/random_cases.hpp"
#include "judging/case_result.hpp"

namespace runner {

// How much shrinking one case may spend: --shrink-budget calls and --shrink-seconds of wall
// time, whichever ends first.
struct ShrinkBudget {
    int tries = 1000;
    double seconds = 120;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    int used = 0;             // backend calls spent
    std::string cut_short{};  // "tries" or "seconds": a candidate was left untried for it

    // Whether another candidate may run; when not, records which budget ended.
    bool left();
    double elapsed() const;
};

struct ShrinkOutcome {
    std::string id;  // the smallest case that still fails; replayable with `run --case`
    core::CaseRecord data;
    judging::CaseResult result;
    std::int64_t elements = 0;  // of its output
    int tries = 0;              // backend calls spent, in all
    double seconds = 0;         // wall time spent shrinking, in all
    std::string cut_short{};    // as ShrinkBudget's
};

using CandidateRun = std::function<judging::CaseResult(const core::CaseRecord&)>;

// A candidate fails "the same way" when it ends with the same status and, for FAILED, shares a
// mismatch category with the original. Takes the first such shrink at each level. nullopt when
// no shrink fails the same way.
std::optional<ShrinkOutcome> shrink_failure(const case_sources::RandomCaseKey& key,
                                            const judging::CaseResult& original,
                                            ShrinkBudget& budget, const CandidateRun& run);

// Any valid case `data` (id `id`, in the runtime form): the pair of its first mismatch when that
// pair alone fails the same way; else (and for a crash, which names no element) its output
// range halved, keeping a half that fails the same way, down to one pair or until neither half
// does. nullopt when no narrowing fails the same way.
std::optional<ShrinkOutcome> narrow_pairs(const std::string& id, const core::CaseRecord& data,
                                          const judging::CaseResult& original, ShrinkBudget& budget,
                                          const CandidateRun& run);

// A block that failed: the pair of its first mismatch when that pair alone fails the same way;
// else (and for a crash or hang, which name no element) the block halved, B's rows before A's
// columns, keeping a half that fails the same way.
std::optional<ShrinkOutcome> narrow_block_failure(const case_sources::Exhaustive16Key& key,
                                                  const judging::CaseResult& original,
                                                  ShrinkBudget& budget, const CandidateRun& run);

bool fails_the_same_way(const judging::CaseResult& original, const judging::CaseResult& candidate);

}  // namespace runner
