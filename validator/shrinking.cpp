#include "validator/shrinking.hpp"

#include <algorithm>

namespace validator {

bool fails_the_same_way(const CaseResult& original, const CaseResult& candidate) {
    if (candidate.status != original.status) return false;
    if (original.status != Status::failed) return true;
    return std::any_of(candidate.categories.begin(), candidate.categories.end(),
                       [&](const auto& entry) { return original.categories.count(entry.first); });
}

namespace {

std::int64_t output_elements(const core::OpVersion& op, const CaseData& d) {
    return core::element_count(core::prepare_call(op, d.attributes, d.a, d.b).plan.output);
}

}  // namespace

// RapidCheck's own order: the first shrink that still fails, level by level, and is no larger
// (a shrunk pick makes later picks regenerate, which may draw a bigger shape). Its exec trees
// shrink the picks in the order they were made (the value pools, then the shapes), and a step
// into a later pick never returns to an earlier one, so reordering the candidates (say, smallest
// output first) ends on larger cases; measured, it did.
std::optional<ShrinkOutcome> shrink_failure(const RandomCaseKey& key, const CaseResult& original,
                                            int budget,
                                            const std::function<CaseResult(const CaseData&)>& run) {
    std::optional<ShrinkOutcome> best;
    const core::OpVersion& op = *key.combination->op;
    rc::Shrinkable<property_tests::Case> node = random_case_tree(key);
    std::int64_t size = output_elements(op, case_data(node.value()));
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
            const std::int64_t candidate_size = output_elements(op, data);
            if (candidate_size > size) continue;
            CaseResult result = run(data);
            ++tries;
            if (!fails_the_same_way(original, result)) continue;
            at.shrink_path.push_back(i);
            node = std::move(*candidate);
            size = candidate_size;
            best = ShrinkOutcome{at, std::move(data), std::move(result), 0};
            descended = true;
            break;
        }
    }
    if (best) best->tries = tries;
    return best;
}

}  // namespace validator
