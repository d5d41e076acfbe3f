#include "triage/draft_entries.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "behaviours/behaviour_model.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"

namespace triage {
namespace {

template <class T>
bool has(const std::vector<T>& list, const T& v) {
    return std::find(list.begin(), list.end(), v) != list.end();
}

template <class T>
void add_missing(std::vector<T>& to, const std::vector<T>& from) {
    for (const T& v : from)
        if (!has(to, v)) to.push_back(v);
}

// A call of `op` on `dtype` can have `rule`: otherwise the combination needs no evidence.
bool possible(const std::string& op_id, core::ElementType dtype, core::BroadcastRule rule) {
    const core::OpVersion* op = core::find_op_version(op_id);
    return op && op->allows(dtype) && has(core::broadcast_rules(*op), rule);
}

bool only_seen(const ScopeBox& box, const std::set<CallKey>& seen) {
    for (const std::string& op : box.ops)
        for (core::ElementType t : box.dtypes)
            for (core::BroadcastRule r : box.rules)
                for (const std::string& f : box.forms)
                    if (possible(op, t, r) && !seen.count(CallKey{op, t, r, f})) return false;
    return true;
}

ScopeBox merged(ScopeBox x, const ScopeBox& y) {
    add_missing(x.ops, y.ops);
    add_missing(x.dtypes, y.dtypes);
    add_missing(x.rules, y.rules);
    add_missing(x.forms, y.forms);
    return x;
}

// Lists in a stable order: op versions as the op table has them, the rest by value.
void sort_box(ScopeBox& box) {
    const auto rank = [](const std::string& id) {
        const auto& ops = core::op_versions();
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (ops[i].id() == id) return i;
        return ops.size();
    };
    std::sort(box.ops.begin(), box.ops.end(),
              [&](const auto& x, const auto& y) { return rank(x) < rank(y); });
    std::sort(box.dtypes.begin(), box.dtypes.end());
    std::sort(box.rules.begin(), box.rules.end());
    std::sort(box.forms.begin(), box.forms.end());
}

// Position of a model in the candidates' order: fewer names first, then behaviour_names() order.
std::vector<std::size_t> ranks(const Behaviours& b) {
    const auto& names = behaviours::behaviour_names();
    std::vector<std::size_t> r{b.size()};
    for (const std::string& n : b)
        r.push_back(
            static_cast<std::size_t>(std::find(names.begin(), names.end(), n) - names.begin()));
    return r;
}

// One entry per scope box of the cases' keys; `cases` are (id, key) in file order.
std::vector<DraftEntry> boxed(const DraftEntry& like,
                              const std::vector<std::pair<std::string, CallKey>>& cases) {
    std::vector<CallKey> keys;
    for (const auto& c : cases)
        keys.push_back(c.second);
    std::vector<DraftEntry> out;
    for (ScopeBox& box : scope_boxes(keys)) {
        DraftEntry e = like;
        e.scope = std::move(box);
        for (const auto& [id, key] : cases)
            if (e.scope.contains(key)) e.cases.push_back(id);
        out.push_back(std::move(e));
    }
    return out;
}

// Which chosen model takes each case into its scope. A case only one of them explains goes to
// it; a case several explain goes to the one already holding a case of the same call key, else
// of the same type, else the first chosen: so a model that happens to explain a few cases of
// another's type (a flush of results explains bf16 results truncated to 0) does not widen its
// scope to that type when the other model is drafted anyway.
std::vector<std::size_t> owners(const std::vector<ExplainedCase>& cases,
                                const std::vector<std::vector<bool>>& covers,
                                const std::vector<std::size_t>& chosen) {
    const std::size_t none = covers.size();
    std::vector<std::size_t> owner(cases.size(), none);
    std::vector<std::size_t> ambiguous;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        std::vector<std::size_t> by;
        for (std::size_t m : chosen)
            if (covers[m][i]) by.push_back(m);
        if (by.size() == 1) owner[i] = by[0];
        if (by.size() > 1) ambiguous.push_back(i);
    }
    for (std::size_t i : ambiguous) {
        int best_score = -1;
        for (std::size_t m : chosen) {
            if (!covers[m][i]) continue;
            int score = 0;
            for (std::size_t j = 0; j < cases.size(); ++j)
                if (owner[j] == m &&
                    std::find(ambiguous.begin(), ambiguous.end(), j) == ambiguous.end())
                    score = std::max(score, cases[j].key == cases[i].key               ? 2
                                            : cases[j].key.dtype == cases[i].key.dtype ? 1
                                                                                       : 0);
            if (score > best_score) best_score = score, owner[i] = m;
        }
    }
    return owner;
}

}  // namespace

bool ScopeBox::contains(const CallKey& k) const {
    return has(ops, k.op) && has(dtypes, k.dtype) && has(rules, k.rule) && has(forms, k.form);
}

std::vector<ScopeBox> scope_boxes(const std::vector<CallKey>& keys) {
    const std::set<CallKey> seen(keys.begin(), keys.end());
    std::vector<ScopeBox> boxes;
    for (const CallKey& k : seen)
        boxes.push_back({{k.op}, {k.dtype}, {k.rule}, {k.form}});
    for (bool again = true; again;) {
        again = false;
        for (std::size_t i = 0; i < boxes.size() && !again; ++i)
            for (std::size_t j = i + 1; j < boxes.size() && !again; ++j) {
                ScopeBox m = merged(boxes[i], boxes[j]);
                if (!only_seen(m, seen)) continue;
                boxes[i] = std::move(m);
                boxes.erase(boxes.begin() + static_cast<std::ptrdiff_t>(j));
                again = true;
            }
    }
    for (ScopeBox& b : boxes)
        sort_box(b);
    return boxes;
}

std::vector<DraftEntry> value_entries(const std::vector<ExplainedCase>& cases,
                                      const ExplainsFn& explains) {
    std::vector<Behaviours> pool;
    for (const ExplainedCase& c : cases)
        add_missing(pool, c.fewest);
    std::sort(pool.begin(), pool.end(),
              [](const auto& x, const auto& y) { return ranks(x) < ranks(y); });
    std::vector<std::vector<bool>> covers(pool.size(), std::vector<bool>(cases.size()));
    for (std::size_t m = 0; m < pool.size(); ++m)
        for (std::size_t i = 0; i < cases.size(); ++i)
            covers[m][i] = has(cases[i].fewest, pool[m]) || explains(i, pool[m]);
    // The greedy cover: the models taken, in order.
    std::vector<bool> covered(cases.size(), false);
    std::vector<std::size_t> chosen;
    while (true) {
        std::size_t best = pool.size(), best_count = 0;
        for (std::size_t m = 0; m < pool.size(); ++m) {
            std::size_t n = 0;
            for (std::size_t i = 0; i < cases.size(); ++i)
                n += covers[m][i] && !covered[i];
            if (n > best_count) best = m, best_count = n;
        }
        if (best == pool.size()) break;
        chosen.push_back(best);
        for (std::size_t i = 0; i < cases.size(); ++i)
            covered[i] = covered[i] || covers[best][i];
    }
    const std::vector<std::size_t> owner = owners(cases, covers, chosen);
    std::vector<DraftEntry> out;
    for (std::size_t m : chosen) {
        std::vector<std::pair<std::string, CallKey>> taken;
        for (std::size_t i = 0; i < cases.size(); ++i)
            if (owner[i] == m) taken.emplace_back(cases[i].id, cases[i].key);
        if (taken.empty()) continue;
        DraftEntry like;
        like.behaviours = pool[m];
        for (DraftEntry& e : boxed(like, taken))
            out.push_back(std::move(e));
    }
    return out;
}

std::vector<DraftEntry> status_entries(const std::vector<StatusCase>& cases) {
    std::map<std::pair<results::Status, profiles::InputsWhen>,
             std::vector<std::pair<std::string, CallKey>>>
        groups;
    for (const StatusCase& c : cases)
        groups[{c.status, c.holding.front()}].emplace_back(c.id, c.key);
    std::vector<DraftEntry> out;
    for (const auto& [group, members] : groups) {
        DraftEntry like;
        like.status = group.first;
        like.when = group.second;
        for (DraftEntry& e : boxed(like, members))
            out.push_back(std::move(e));
    }
    return out;
}

}  // namespace triage
