#include "judging/case_judge.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "behaviours/behaviour_model.hpp"
#include "core/error.hpp"

namespace judging {
namespace {

results::Status status_of_answer(backends::Outcome o, bool valid) {
    switch (o) {
        case backends::Outcome::ok:
            return valid ? results::Status::passed
                         : results::Status::accepted_invalid;  // passed: until compared
        case backends::Outcome::rejected:
            return valid ? results::Status::rejected_valid : results::Status::passed;
        case backends::Outcome::unsupported:
            return results::Status::unsupported;
        case backends::Outcome::error:
            return results::Status::error;
        case backends::Outcome::crashed:
            return results::Status::crashed;
        case backends::Outcome::hung:
            return results::Status::hung;
        case backends::Outcome::protocol_error:
            return results::Status::protocol_error;
    }
    return results::Status::error;
}

// Above this many output elements a passing case does not run the declared models to find out
// whether they would have predicted a deviation (for the stale report): exhaustive16 blocks.
constexpr std::int64_t kStaleCheckLimit = std::int64_t{1} << 20;

std::vector<const profiles::Entry*> active_entries(const core::PreparedCall& call,
                                                   const core::CaseRecord& data,
                                                   const JudgeSettings& settings) {
    if (!settings.profile || !settings.platform) return {};
    return profiles::active_entries(*settings.profile, *settings.platform, call, data.graph_form);
}

// A value entry of the profile and its output for the case, computed once, when first needed.
struct ValueEntry {
    const profiles::Entry* entry = nullptr;
    bool computed = false;
    std::optional<comparison::DeclaredOutput> output;  // none: its model cannot compute it
};

std::vector<ValueEntry> value_entries(const core::PreparedCall& call, const core::CaseRecord& data,
                                      const JudgeSettings& settings) {
    std::vector<ValueEntry> out;
    for (const profiles::Entry* e : active_entries(call, data, settings))
        if (!e->status) out.push_back({e, false, std::nullopt});
    return out;
}

// An entry's output for the case; none when its model cannot compute it (numpy's rule cannot
// broadcast the shapes: the backend then fails, a status).
const std::optional<comparison::DeclaredOutput>& declared_output(ValueEntry& v,
                                                                 const PreparedCase& p) {
    if (v.computed) return v.output;
    v.computed = true;
    const core::CaseRecord& data = *p.data;
    try {
        const core::PreparedCall modelled =
            behaviours::modelled_call(v.entry->model, *p.op, data.attributes, data.a, data.b);
        v.output = comparison::DeclaredOutput{
            v.entry->name,
            behaviours::model_output(v.entry->model, modelled, data.a, data.b, data.graph_form)};
    } catch (const core::Error&) {
    }
    return v.output;
}

// A model with another output shape (legacy broadcasting read as numpy's) explains the case
// when the actual output has that shape and every element.
bool matches_whole(const profiles::Entry& e, const core::PreparedCall& call,
                   const core::CaseRecord& data, const core::Tensor& modelled,
                   const core::TensorView& actual, const comparison::ComparisonPolicy& policy) {
    if (actual.shape != modelled.shape) return false;
    const core::PreparedCall other =
        behaviours::modelled_call(e.model, *call.op, data.attributes, data.a, data.b);
    return comparison::compare_output(other, data.a, data.b, core::OpOutput{modelled, {}}, actual,
                                      policy)
        .passed();
}

// Declared value entries that predict a different output than the expected one for this case
// (any defined element): they were exercised, whatever the backend did.
void note_exercised(std::vector<ValueEntry>& entries, const PreparedCase& p,
                    const core::OpOutput& expected, const JudgeSettings& settings) {
    if (!settings.exercised || p.elements > kStaleCheckLimit) return;
    for (ValueEntry& v : entries) {
        if (settings.exercised->count(v.entry->name)) continue;
        const std::optional<comparison::DeclaredOutput>& d = declared_output(v, p);
        if (!d) continue;
        const comparison::Comparison c = comparison::compare_output(
            *p.call, p.data->a, p.data->b, expected, core::TensorView(d->output), {}, 0);
        if (!c.passed()) settings.exercised->insert(v.entry->name);
    }
}

// The policy with the computed outputs of the expected shape as declared outputs.
comparison::ComparisonPolicy with_declared(const comparison::ComparisonPolicy& policy,
                                           const std::vector<ValueEntry>& entries,
                                           const core::OpOutput& expected) {
    comparison::ComparisonPolicy out = policy;
    for (const ValueEntry& v : entries)
        if (v.output && v.output->output.shape == expected.value.shape)
            out.declared.push_back(*v.output);
    return out;
}

// Whether the comparison could change with the entries' outputs not computed yet (it computes
// them): one of the expected shape is new.
bool more_declared(std::vector<ValueEntry>& entries, const PreparedCase& p,
                   const core::OpOutput& expected) {
    bool more = false;
    for (ValueEntry& v : entries) {
        if (v.computed) continue;
        const std::optional<comparison::DeclaredOutput>& d = declared_output(v, p);
        more = more || (d && d->output.shape == expected.value.shape);
    }
    return more;
}

// An output of another shape than the expected one, explained whole by an entry's model.
std::optional<comparison::Comparison> explained_whole(std::vector<ValueEntry>& entries,
                                                      const PreparedCase& p,
                                                      const core::TensorView& actual,
                                                      const JudgeSettings& settings) {
    for (ValueEntry& v : entries) {
        const std::optional<comparison::DeclaredOutput>& d = declared_output(v, p);
        if (!d || !matches_whole(*v.entry, *p.call, *p.data, d->output, actual, settings.policy))
            continue;
        comparison::Comparison whole;
        whole.declared[v.entry->name] = actual.size();
        return whole;
    }
    return std::nullopt;
}

// The comparison of a valid case's output, with the profile's value entries where the plain
// comparison fails on element values. The output is compared once, with the entries' outputs
// that the stale check computed; a second time only when it fails on values and an entry's
// output of the expected shape had not been computed (a passing case never computes them).
comparison::Comparison compared(const PreparedCase& p, const core::OpOutput& expected,
                                const core::TensorView& actual, const JudgeSettings& settings) {
    const core::PreparedCall& call = *p.call;
    const core::CaseRecord& data = *p.data;
    std::vector<ValueEntry> entries = value_entries(call, data, settings);
    note_exercised(entries, p, expected, settings);
    comparison::Comparison c = comparison::compare_output(
        call, data.a, data.b, expected, actual, with_declared(settings.policy, entries, expected));
    // A shape or type mismatch is found before any element is compared (declared or not).
    if (c.categories.count(comparison::Category::shape))
        return explained_whole(entries, p, actual, settings).value_or(std::move(c));
    if (c.categories.count(comparison::Category::dtype) || (c.passed() && c.declared.empty()))
        return c;
    if (!more_declared(entries, p, expected)) return c;
    return comparison::compare_output(call, data.a, data.b, expected, actual,
                                      with_declared(settings.policy, entries, expected));
}

void judge_output(results::Verdict& v, const PreparedCase& p, const core::OpOutput& expected,
                  const core::TensorView& actual, const JudgeSettings& settings) {
    comparison::Comparison c = compared(p, expected, actual, settings);
    v.allowed_by = std::move(c.allowances);
    v.declared = std::move(c.declared);
    if (c.passed() && v.declared.empty()) return;
    v.status = c.passed() ? results::Status::deviates_as_declared : results::Status::failed;
    v.message = comparison::describe(c);
    v.categories = std::move(c.categories);
    v.mismatches = std::move(c.first);
}

// An output too large to read whose header names another type or shape than the expected
// output's: the header alone shows the answer wrong.
void judge_unread_output(results::Verdict& v, const PreparedCase& p, const core::OpOutput& expected,
                         const backends::UnreadOutput& output, const JudgeSettings& settings) {
    const core::TensorView header_only{output.type, output.shape, {}};
    comparison::Comparison c = comparison::compare_output(*p.call, p.data->a, p.data->b, expected,
                                                          header_only, settings.policy);
    v.status = results::Status::failed;
    v.message = comparison::describe(c) + " (from the header of the " +
                std::to_string(output.file_bytes) + "-byte output file, too large to be read)";
    v.categories = std::move(c.categories);
    v.mismatches = std::move(c.first);
}

void judge_rejection_reason(results::Verdict& v, const std::string& reason, const PreparedCase& p) {
    if (reason.empty() || reason == "other" || reason == p.invalidity) return;
    v.status = results::Status::failed;
    v.categories = {{comparison::Category::rejection_reason, 1}};
    v.message = "rejected for its " + reason + ", but the inputs are invalid because of their " +
                p.invalidity + " | " + v.message;
}

}  // namespace

core::TensorView output_of(const backends::Result& answer) {
    return answer.shared_output ? *answer.shared_output : core::TensorView(answer.output);
}

results::Verdict judge_answer(const PreparedCase& p, const backends::Result& answer,
                              const core::OpOutput& expected, const JudgeSettings& settings) {
    results::Verdict v;
    const bool valid = p.data->valid;
    v.status = status_of_answer(answer.outcome, valid);
    v.message = answer.message;
    if (answer.outcome == backends::Outcome::ok && valid && answer.unread_output)
        judge_unread_output(v, p, expected, *answer.unread_output, settings);
    else if (answer.outcome == backends::Outcome::ok && valid)
        judge_output(v, p, expected, output_of(answer), settings);
    if (answer.outcome == backends::Outcome::rejected && !valid)
        judge_rejection_reason(v, answer.reason, p);
    return v;
}

void declare_status(results::Verdict& v, const PreparedCase& p, const JudgeSettings& settings) {
    const bool shape_only = v.status == results::Status::failed && v.categories.size() == 1 &&
                            v.categories.count(comparison::Category::shape);
    if (!results::is_deviation(v.status) || (v.status == results::Status::failed && !shape_only))
        return;
    if (!settings.profile || !settings.platform) return;
    const core::CaseRecord& data = *p.data;
    const core::PreparedCall& call = p.call ? *p.call : p.rejected_scope;
    std::vector<const std::string*> predicted;
    for (const profiles::Entry* e : active_entries(call, data, settings)) {
        if (!e->status) continue;
        const bool inputs = e->when == profiles::InputsWhen::any ||
                            (data.valid && profiles::inputs_match(e->when, call, data.a, data.b));
        if (!inputs) continue;
        // Only a `when` predicts the status: an entry for any inputs is never stale.
        if (e->when != profiles::InputsWhen::any && e->when != profiles::InputsWhen::shape_only)
            predicted.push_back(&e->name);
        if (v.status != *e->status || v.status == results::Status::deviates_as_declared) continue;
        v.status = results::Status::deviates_as_declared;
        v.declared[e->name] = 1;
        v.message = "declared " + std::string(results::name(*e->status)) + " (" + e->name + ", " +
                    e->finding + ") | " + v.message;
    }
    // A call that another entry declares failed before the predicted one could happen (a
    // refused shape never reaches the division that traps): no entry's prediction was tested.
    if (!settings.exercised || v.status == results::Status::deviates_as_declared) return;
    for (const std::string* name : predicted)
        settings.exercised->insert(*name);
}

}  // namespace judging
