// Grouping triaged cases into the fewest profile entries with the narrowest scope that holds.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "profiles/backend_profile.hpp"
#include "results/case_status.hpp"
#include "triage/model_search.hpp"
#include "triage/saved_call.hpp"

namespace triage {

// A scope as a product: every combination of its lists that a call can have (the op version has
// the type and the rule) was seen in some case, so the scope is never wider than the evidence.
struct ScopeBox {
    std::vector<std::string> ops;  // op-version ids, in the op table's order
    std::vector<core::ElementType> dtypes;
    std::vector<core::BroadcastRule> rules;
    std::vector<std::string> forms;
    bool contains(const CallKey& k) const;
};

// The fewest boxes found greedily: each seen key a box of its own, then two boxes merged
// whenever their union's product holds only seen (or impossible) combinations, until none can
// be. Every key lies in exactly one box.
std::vector<ScopeBox> scope_boxes(const std::vector<CallKey>& keys);

struct DraftEntry {
    Behaviours behaviours;                  // a value entry,
    std::optional<results::Status> status;  // or a status entry
    profiles::InputsWhen when = profiles::InputsWhen::any;
    ScopeBox scope;
    std::vector<std::string> cases;  // the ids it explains, in results-file order
};

struct ExplainedCase {
    std::string id;
    CallKey key;
    std::vector<Behaviours> fewest;  // fewest_explanations(...).fewest, not empty
};
// Whether the model explains cases[index] (CallJudge::explains).
using ExplainsFn = std::function<bool(std::size_t index, const Behaviours&)>;

// Value entries by greedy set cover: the candidate models are every case's fewest explanations;
// each one's cases are those it explains (asked of `explains` beyond its own cases); the model
// explaining the most cases not yet covered is taken first (ties: fewer names, then the first in
// behaviour_names() order), and takes those cases. Each model's cases then make one entry per
// scope box of their keys.
std::vector<DraftEntry> value_entries(const std::vector<ExplainedCase>& cases,
                                      const ExplainsFn& explains);

struct StatusCase {
    std::string id;
    CallKey key;
    results::Status status;
    std::vector<profiles::InputsWhen> holding;  // holding_predicates(...), or {shape_only}
};
// Status entries: the cases of one status grouped by the most specific predicate that holds for
// each (so it holds for every case of its group), one entry per scope box of a group's keys.
std::vector<DraftEntry> status_entries(const std::vector<StatusCase>& cases);

}  // namespace triage
