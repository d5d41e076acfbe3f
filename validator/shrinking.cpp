#include "validator/shrinking.hpp"

#include <algorithm>

namespace validator {

bool fails_the_same_way(const CaseResult& original, const CaseResult& candidate) {
    if (candidate.status != original.status) return false;
    if (original.status != Status::failed) return true;
    return std::any_of(candidate.categories.begin(), candidate.categories.end(),
                       [&](const auto& entry) { return original.categories.count(entry.first); });
}

// RapidCheck's own order: the first shrink that still fails, level by level. Its exec trees
// shrink the picks in the order they were made (the value pools, then the shapes), and a step
// into a later pick never returns to an earlier one, so reordering the candidates (say, smallest
// output first) ends on larger cases; measured, it did.
std::optional<ShrinkOutcome> shrink_failure(const RandomCaseKey& key, const CaseResult& original,
                                            int budget,
                                            const std::function<CaseResult(const CaseData&)>& run) {
    std::optional<ShrinkOutcome> best;
    rc::Shrinkable<property_tests::Case> node = random_case_tree(key);
    RandomCaseKey at = key;
    int tries = 0;
    bool descended = true;
    while (descended && tries < budget) {
        descended = false;
        auto shrinks = node.shrinks();
        for (std::size_t i = 0; tries < budget; ++i) {
            auto candidate = shrinks.next();
            if (!candidate) break;
            CaseData data = case_data(candidate->value());
            CaseResult result = run(data);
            ++tries;
            if (!fails_the_same_way(original, result)) continue;
            at.shrink_path.push_back(i);
            node = std::move(*candidate);
            best = ShrinkOutcome{at, std::move(data), std::move(result), 0};
            descended = true;
            break;
        }
    }
    if (best) best->tries = tries;
    return best;
}

}  // namespace validator
