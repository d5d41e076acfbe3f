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

// An entry's output for the case; none when its model cannot compute it (numpy's rule cannot
// broadcast the shapes: the backend then fails, a status).
std::optional<comparison::DeclaredOutput> declared_output(const profiles::Entry& e,
                                                          const core::PreparedCall& call,
                                                          const core::CaseRecord& data) {
    try {
        const core::PreparedCall modelled =
            behaviours::modelled_call(e.model, *call.op, data.attributes, data.a, data.b);
        return comparison::DeclaredOutput{
            e.name, behaviours::model_output(e.model, modelled, data.a, data.b, data.graph_form)};
    } catch (const core::Error&) {
        return std::nullopt;
    }
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
void note_exercised(const std::vector<const profiles::Entry*>& entries, const PreparedCase& p,
                    const core::OpOutput& expected, const JudgeSettings& settings) {
    if (!settings.exercised || p.elements > kStaleCheckLimit) return;
    const core::PreparedCall& call = *p.call;
    const core::CaseRecord& data = *p.data;
    for (const profiles::Entry* e : entries) {
        if (e->status || settings.exercised->count(e->name)) continue;
        const std::optional<comparison::DeclaredOutput> d = declared_output(*e, call, data);
        if (!d) continue;
        const comparison::Comparison c = comparison::compare_output(
            call, data.a, data.b, expected, core::TensorView(d->output), {}, 0);
        if (!c.passed()) settings.exercised->insert(e->name);
    }
}

// The comparison of a valid case's output, with the profile's value entries where the plain
// comparison fails on element values.
comparison::Comparison compared(const PreparedCase& p, const core::OpOutput& expected,
                                const core::TensorView& actual, const JudgeSettings& settings) {
    const core::PreparedCall& call = *p.call;
    const core::CaseRecord& data = *p.data;
    comparison::Comparison c =
        comparison::compare_output(call, data.a, data.b, expected, actual, settings.policy);
    const std::vector<const profiles::Entry*> entries = active_entries(call, data, settings);
    note_exercised(entries, p, expected, settings);
    if (c.passed() || c.categories.count(comparison::Category::dtype)) return c;
    comparison::ComparisonPolicy with_declared = settings.policy;
    for (const profiles::Entry* e : entries) {
        if (e->status) continue;
        std::optional<comparison::DeclaredOutput> d = declared_output(*e, call, data);
        if (!d) continue;
        if (d->output.shape == expected.value.shape) {
            with_declared.declared.push_back(std::move(*d));
        } else if (matches_whole(*e, call, data, d->output, actual, settings.policy)) {
            comparison::Comparison whole;
            whole.declared[e->name] = actual.size();
            return whole;
        }
    }
    if (with_declared.declared.empty() || c.categories.count(comparison::Category::shape)) return c;
    return comparison::compare_output(call, data.a, data.b, expected, actual, with_declared);
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
