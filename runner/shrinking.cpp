#include "runner/shrinking.hpp"

#include <algorithm>
#include <utility>

#include "case_sources/pair_narrowing.hpp"
#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace runner {
namespace {

// A candidate's size: its output's element count. Throws core::Error when the spec rejects it.
std::int64_t output_size(const core::OpVersion& op, const core::CaseRecord& data) {
    return core::element_count(core::prepare_call(op, data.attributes, data.a, data.b).plan.output);
}

}  // namespace

bool ShrinkBudget::left() {
    if (used >= tries) {
        cut_short = "tries";
        return false;
    }
    if (elapsed() >= seconds) {
        cut_short = "seconds";
        return false;
    }
    return true;
}

double ShrinkBudget::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool fails_the_same_way(const judging::CaseResult& original, const judging::CaseResult& candidate) {
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
std::optional<ShrinkOutcome> shrink_failure(const case_sources::RandomCaseKey& key,
                                            const judging::CaseResult& original,
                                            ShrinkBudget& budget, const CandidateRun& run) {
    std::optional<ShrinkOutcome> best;
    const core::OpVersion& op = *key.combination->op;
    // From the key's own node: a shrunk id shrinks on from where its path ends.
    rc::Shrinkable<generators::Case> node = case_sources::random_case_node(key);
    std::int64_t size = output_size(op, case_sources::case_data(node.value()));
    case_sources::RandomCaseKey at = key;
    bool descended = true;
    while (descended) {
        descended = false;
        auto shrinks = node.shrinks();
        for (std::size_t i = 0;; ++i) {
            auto candidate = shrinks.next();
            if (!candidate) break;
            core::CaseRecord data = case_sources::case_data(candidate->value());
            const std::int64_t candidate_size = output_size(op, data);
            if (candidate_size > size) continue;
            if (!budget.left()) return best;
            judging::CaseResult result = run(data);
            ++budget.used;
            if (!fails_the_same_way(original, result)) continue;
            at.shrink_path.push_back(i);
            node = std::move(*candidate);
            size = candidate_size;
            best = ShrinkOutcome{case_sources::random_case_id(at), std::move(data),
                                 std::move(result), size};
            descended = true;
            break;
        }
    }
    return best;
}

std::optional<ShrinkOutcome> narrow_pairs(const std::string& id, const core::CaseRecord& data,
                                          const judging::CaseResult& original, ShrinkBudget& budget,
                                          const CandidateRun& run) {
    std::optional<ShrinkOutcome> best;
    const auto attempt = [&](case_sources::PairRange range) {
        if (!budget.left()) return false;
        core::CaseRecord narrowed;
        try {
            narrowed = case_sources::narrowed_to_pairs(data, range);
        } catch (const std::exception&) {
            return false;  // a case that cannot be narrowed is left to the other shrinkers
        }
        narrowed.graph_form = data.graph_form;
        judging::CaseResult result = run(narrowed);
        ++budget.used;
        if (!fails_the_same_way(original, result)) return false;
        best = ShrinkOutcome{case_sources::pairs_case_id(id, range), std::move(narrowed),
                             std::move(result), range.count()};
        return true;
    };
    if (!data.valid) return best;
    const std::int64_t n = output_size(*data.op, data);
    const auto& mismatches = original.verdict.mismatches;
    if (!mismatches.empty() && mismatches.front().index >= 0 && mismatches.front().index < n &&
        attempt({mismatches.front().index, mismatches.front().index}))
        return best;
    case_sources::PairRange at{0, n - 1};
    while (at.count() > 1) {
        const case_sources::PairRange low{at.first, at.first + at.count() / 2 - 1};
        const case_sources::PairRange high{low.last + 1, at.last};
        if (attempt(low))
            at = low;
        else if (attempt(high))
            at = high;
        else
            break;  // neither half alone fails the same way, or the budget is spent
    }
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

std::optional<ShrinkOutcome> narrow_block_failure(const case_sources::Exhaustive16Key& key,
                                                  const judging::CaseResult& original,
                                                  ShrinkBudget& budget, const CandidateRun& run) {
    std::optional<ShrinkOutcome> best;
    const auto attempt = [&](const case_sources::PairBlock& block) {
        if (!budget.left()) return false;
        const case_sources::Exhaustive16Key candidate{key.function, block};
        core::CaseRecord data = case_sources::exhaustive16_case_data(candidate);
        judging::CaseResult result = run(data);
        ++budget.used;
        if (!fails_the_same_way(original, result)) return false;
        best = ShrinkOutcome{case_sources::exhaustive16_case_id(candidate), std::move(data),
                             std::move(result), block.pairs()};
        return true;
    };
    if (!original.verdict.mismatches.empty() && original.verdict.mismatches.front().index >= 0 &&
        attempt(case_sources::pair_at(key.block, original.verdict.mismatches.front().index)))
        return best;
    case_sources::PairBlock at = key.block;
    while (at.pairs() > 1) {
        const auto [low, high] = halves(at);
        if (attempt(low)) {
            at = low;
        } else if (attempt(high)) {
            at = high;
        } else {
            break;  // neither half alone fails the same way, or the budget is spent
        }
    }
    return best;
}

}  // namespace runner
