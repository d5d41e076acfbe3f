#include "triage/model_search.hpp"

#include <algorithm>

#include "behaviours/behaviour_model.hpp"
#include "core/error.hpp"
#include "judging/case_judge.hpp"

namespace triage {
namespace {

behaviours::Model model_of(const Behaviours& names) {
    behaviours::Model m;
    for (const std::string& n : names)
        behaviours::add_behaviour(m, n);
    return m;
}

bool is_multiply(const SavedCall& c) {
    return c.data.op->arithmetic == core::Arithmetic::multiply;
}

// A name that changes nothing alone, for any type and operation.
bool is_modifier(std::string_view name) {
    const behaviours::Model m = model_of({std::string(name)});
    for (const core::ElementTypeInfo& t : core::kElementTypes)
        for (bool multiply : {true, false})
            if (behaviours::affects(m, t.type, multiply)) return false;
    return true;
}

// Calls `visit` with every combination of `size` names of `pool` (kept in pool order).
template <class Visit>
void combinations(const std::vector<std::string>& pool, std::size_t size, Visit visit) {
    Behaviours pick;
    const auto step = [&](const auto& self, std::size_t from) -> void {
        if (pick.size() == size) {
            visit(pick);
            return;
        }
        for (std::size_t i = from; i < pool.size(); ++i) {
            pick.push_back(pool[i]);
            self(self, i + 1);
            pick.pop_back();
        }
    };
    step(step, 0);
}

}  // namespace

CallJudge::CallJudge(const SavedCall& call, const comparison::ComparisonPolicy& policy)
    : call_(call), policy_(policy), prepared_(judging::prepare_case(*call.data.op, call.data)) {
    if (prepared_.call) expected_ = judging::expected_output(prepared_);
}

bool CallJudge::explains(const Behaviours& names) const {
    if (!prepared_.call || !call_.actual) return false;
    profiles::Profile profile;
    profiles::Entry e;
    e.name = "candidate";
    e.behaviours = names;
    e.model = model_of(names);
    e.scope.ops = {call_.data.op->id()};
    profile.entries.push_back(std::move(e));
    const platform::Platform anywhere;  // the entry has no condition
    judging::JudgeSettings settings{policy_, &profile, &anywhere, nullptr};
    backends::Result answer;
    answer.outcome = backends::Outcome::ok;
    answer.output = *call_.actual;
    return judging::judge_answer(prepared_, answer, expected_, settings).status ==
           results::Status::deviates_as_declared;
}

std::vector<std::string> CallJudge::alone() const {
    std::vector<std::string> out;
    for (std::string_view n : behaviours::behaviour_names())
        if (behaviours::affects(model_of({std::string(n)}), call_.data.a.type, is_multiply(call_)))
            out.emplace_back(n);
    return out;
}

std::vector<std::string> CallJudge::modifiers() const {
    std::vector<std::string> out;
    for (std::string_view n : behaviours::behaviour_names())
        if (is_modifier(n)) out.emplace_back(n);
    return out;
}

Explanations fewest_explanations(const CallJudge& judge) {
    Explanations out;
    const std::vector<std::string> alone = judge.alone();
    std::vector<std::string> pool;  // behaviour_names() order, so combinations keep it
    const std::vector<std::string> modifiers = judge.modifiers();
    for (std::string_view n : behaviours::behaviour_names()) {
        const std::string name(n);
        if (std::count(alone.begin(), alone.end(), name) ||
            std::count(modifiers.begin(), modifiers.end(), name))
            pool.push_back(name);
    }
    for (std::size_t size = 1; size <= kMaxNames && out.fewest.empty(); ++size) {
        if (size == 3 && judge.elements() > kTripleElements) {
            out.note = "combinations of three behaviours not searched (" +
                       std::to_string(judge.elements()) + " output elements)";
            break;
        }
        combinations(size == 1 ? alone : pool, size, [&](const Behaviours& names) {
            const bool has_alone = std::any_of(names.begin(), names.end(), [&](const auto& n) {
                return std::count(alone.begin(), alone.end(), n) > 0;
            });
            if (has_alone && judge.explains(names)) out.fewest.push_back(names);
        });
    }
    return out;
}

std::vector<profiles::InputsWhen> holding_predicates(const SavedCall& c) {
    using W = profiles::InputsWhen;
    std::vector<W> out;
    try {
        const core::PreparedCall call =
            core::prepare_call(*c.data.op, c.data.attributes, c.data.a, c.data.b);
        for (W w : {W::int_min_by_minus_one, W::int32_min_by_minus_one, W::traps_in_i32,
                    W::zero_divisor, W::empty_output})
            if (c.data.valid && profiles::inputs_match(w, call, c.data.a, c.data.b))
                out.push_back(w);
    } catch (const core::Error&) {
        // the spec rejects the inputs: only `any` can hold
    }
    out.push_back(W::any);
    return out;
}

}  // namespace triage
