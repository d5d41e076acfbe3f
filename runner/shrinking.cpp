#include "runner/shrinking.hpp"

#include <algorithm>
#include <utility>

namespace runner {

bool fails_the_same_way(const CaseResult& original, const CaseResult& candidate) {
    if (candidate.verdict.status != original.verdict.status) return false;
    if (original.verdict.status != results::Status::failed) return true;
    return std::any_of(
        candidate.verdict.categories.begin(), candidate.verdict.categories.end(),
        [&](const auto& entry) { return original.verdict.categories.count(entry.first); });
}

// RapidCheck's own order: the first shrink that still fails, level by level, and is no larger
// (a shrunk pick makes later picks regenerate, which may draw a bigger shape). Its exec trees
// shrink the picks in the order they were made (the value pools, then the shapes), and a step
// into a later pick never returns to an earlier one, so reordering the candidates (say, smallest
// output first) ends on larger cases; measured, it did.
std::optional<ShrinkOutcome> shrink_failure(
    const case_sources::RandomCaseKey& key, const CaseResult& original, int budget,
    const std::function<CaseResult(const core::CaseRecord&)>& run) {
    std::optional<ShrinkOutcome> best;
    const core::OpVersion& op = *key.combination->op;
    rc::Shrinkable<generators::Case> node = case_sources::random_case_tree(key);
    std::int64_t size =
        judging::output_elements(judging::prepare_case(op, case_sources::case_data(node.value())));
    case_sources::RandomCaseKey at = key;
    int tries = 0;
    bool descended = true;
    while (descended && tries < budget) {
        descended = false;
        auto shrinks = node.shrinks();
        for (std::size_t i = 0; tries < budget; ++i) {
            auto candidate = shrinks.next();
            if (!candidate) break;
            core::CaseRecord data = case_sources::case_data(candidate->value());
            const std::int64_t candidate_size =
                judging::output_elements(judging::prepare_case(op, data));
            if (candidate_size > size) continue;
            CaseResult result = run(data);
            ++tries;
            if (!fails_the_same_way(original, result)) continue;
            at.shrink_path.push_back(i);
            node = std::move(*candidate);
            size = candidate_size;
            best = ShrinkOutcome{case_sources::random_case_id(at), std::move(data),
                                 std::move(result), 0};
            descended = true;
            break;
        }
    }
    if (best) best->tries = tries;
    return best;
}

namespace {

// The two halves of a block: of its B rows while it has more than one, else of its A columns.
std::pair<case_sources::PairBlock, case_sources::PairBlock> halves(
    const case_sources::PairBlock& b) {
    case_sources::PairBlock low = b, high = b;
    if (b.b_count() > 1) {
        low.b_last = b.b_first + static_cast<std::uint32_t>(b.b_count() / 2) - 1;
        high.b_first = low.b_last + 1;
    } else {
        low.a_last = b.a_first + static_cast<std::uint32_t>(b.a_count() / 2) - 1;
        high.a_first = low.a_last + 1;
    }
    return {low, high};
}

}  // namespace

std::optional<ShrinkOutcome> narrow_block_failure(
    const case_sources::Exhaustive16Key& key, const CaseResult& original, int budget,
    const std::function<CaseResult(const core::CaseRecord&)>& run) {
    std::optional<ShrinkOutcome> best;
    int tries = 0;
    const auto attempt = [&](const case_sources::PairBlock& block) {
        const case_sources::Exhaustive16Key candidate{key.function, block};
        core::CaseRecord data = case_sources::exhaustive16_case_data(candidate);
        CaseResult result = run(data);
        ++tries;
        if (!fails_the_same_way(original, result)) return false;
        best = ShrinkOutcome{case_sources::exhaustive16_case_id(candidate), std::move(data),
                             std::move(result), 0};
        return true;
    };
    if (!original.verdict.mismatches.empty() && original.verdict.mismatches.front().index >= 0 &&
        budget > 0 &&
        attempt(case_sources::pair_at(key.block, original.verdict.mismatches.front().index))) {
        best->tries = tries;
        return best;
    }
    case_sources::PairBlock at = key.block;
    while (at.pairs() > 1 && tries < budget) {
        const auto [low, high] = halves(at);
        if (attempt(low)) {
            at = low;
        } else if (tries < budget && attempt(high)) {
            at = high;
        } else {
            break;  // neither half alone fails the same way
        }
    }
    if (best) best->tries = tries;
    return best;
}

}  // namespace runner
