// Which behaviour models explain a saved call (backends/PROTOCOL.md section 14), and which
// input predicates a status entry could name for it. Exactness is the judge's: a model explains
// a call when the judge, given a profile entry with that model, declares every deviating element
// (DEVIATES_AS_DECLARED); no tolerance is added here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comparison/output_comparison.hpp"
#include "judging/prepared_case.hpp"
#include "profiles/backend_profile.hpp"
#include "triage/saved_call.hpp"

namespace triage {

// Behaviour names, in behaviours::behaviour_names() order: together one model.
using Behaviours = std::vector<std::string>;

// Judges one saved answer again with candidate models. The call must outlive it.
class CallJudge {
  public:
    CallJudge(const SavedCall& call, const comparison::ComparisonPolicy& policy);
    // Whether an entry with these behaviours, scoped to the call, explains the answer.
    bool explains(const Behaviours& behaviours) const;
    // The names worth trying on this call: those whose model alone changes something for its
    // type and operation (behaviours::affects), and the modifiers that change nothing alone
    // (they refine another behaviour: reciprocal_rounded_toward_zero, ...).
    std::vector<std::string> alone() const;
    std::vector<std::string> modifiers() const;
    std::int64_t elements() const { return prepared_.elements; }

  private:
    const SavedCall& call_;
    comparison::ComparisonPolicy policy_;
    judging::PreparedCase prepared_;
    core::OpOutput expected_;
};

// Up to this many names are combined; three only for calls of at most kTripleElements output
// elements (a shrunk case has a few), since a call's search then judges it ~10^3 times.
inline constexpr int kMaxNames = 3;
inline constexpr std::int64_t kTripleElements = std::int64_t{1} << 16;

struct Explanations {
    std::vector<Behaviours> fewest;  // every combination of the fewest names that explains
    std::string note;                // what the search left out, if anything
};

// Single names first, then pairs, then triples, stopping at the first size that explains: so
// every name of a combination found is needed (a combination with a name that changes nothing
// would have been found one size smaller). Combinations draw on alone() and modifiers(), hold at
// least one name of alone(), and must change something for the call's type and operation. The
// call must have an actual output (a FAILED case).
Explanations fewest_explanations(const CallJudge& judge);

// The input predicates of a status entry (profiles::InputsWhen) that hold for the call, the
// most specific first: int_min_by_minus_one, int32_min_by_minus_one, traps_in_i32,
// zero_divisor, empty_output; then `any`, which always holds. shape_only is for FAILED cases,
// decided by their categories.
std::vector<profiles::InputsWhen> holding_predicates(const SavedCall& call);

}  // namespace triage
