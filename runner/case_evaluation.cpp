#include "runner/case_evaluation.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <future>
#include <span>

#include "core/error.hpp"
#include "optimized/run.hpp"
#include "reference/run.hpp"

namespace runner {
namespace {

// The timeout of one case: the base, times the case's bytes in units of 64 MiB when larger.
double case_timeout(double base_seconds, const core::CaseRecord& data) {
    const double bytes =
        3.0 * static_cast<double>(std::max(data.a.bytes.size(), data.b.bytes.size()));
    return base_seconds * std::max(1.0, bytes / (64.0 * 1024 * 1024));
}

// B with every zero divisor replaced by 1: the same call without undefined elements.
core::Tensor with_defined_divisors(const core::Tensor& b) {
    core::Tensor out = b;
    if (core::is_floating(b.type)) return out;
    const std::size_t size = core::byte_size(b.type);
    for (std::size_t i = 0; i + size <= out.bytes.size(); i += size) {
        const auto element = std::span(out.bytes).subspan(i, size);
        if (std::all_of(element.begin(), element.end(),
                        [](std::byte x) { return x == std::byte{0}; }))
            element[std::endian::native == std::endian::little ? 0 : size - 1] = std::byte{1};
    }
    return out;
}

constexpr std::int64_t kReferenceLimit = std::int64_t{1} << 20;
constexpr std::int64_t kOverlapElements = std::int64_t{1} << 16;

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
                                                   const EvaluationSettings& settings) {
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
void note_exercised(const std::vector<const profiles::Entry*>& entries,
                    const core::PreparedCall& call, const core::CaseRecord& data,
                    const core::OpOutput& expected, const EvaluationSettings& settings) {
    if (!settings.exercised || core::element_count(call.plan.output) > kStaleCheckLimit) return;
    for (const profiles::Entry* e : entries) {
        if (e->status || settings.exercised->count(e->name)) continue;
        const std::optional<comparison::DeclaredOutput> d = declared_output(*e, call, data);
        if (!d) continue;
        const comparison::Comparison c = comparison::compare_output(
            call, data.a, data.b, expected, core::TensorView(d->output), {}, 0);
        if (!c.passed()) settings.exercised->insert(e->name);
    }
}

void compare_into(CaseResult& r, const PreparedCase& p, const core::TensorView& actual,
                  const EvaluationSettings& settings) {
    const core::PreparedCall& call = *p.call;
    const core::CaseRecord& data = *p.data;
    comparison::Comparison c =
        comparison::compare_output(call, data.a, data.b, r.expected, actual, settings.policy);
    const std::vector<const profiles::Entry*> entries = active_entries(call, data, settings);
    note_exercised(entries, call, data, r.expected, settings);
    if (!c.passed() && !c.categories.count("dtype")) {
        comparison::ComparisonPolicy with_declared = settings.policy;
        for (const profiles::Entry* e : entries) {
            if (e->status) continue;
            std::optional<comparison::DeclaredOutput> d = declared_output(*e, call, data);
            if (!d) continue;
            if (d->output.shape == r.expected.value.shape) {
                with_declared.declared.push_back(std::move(*d));
            } else if (matches_whole(*e, call, data, d->output, actual, settings.policy)) {
                c = comparison::Comparison{};
                c.declared[e->name] = actual.size();
                break;
            }
        }
        if (!with_declared.declared.empty() && !c.passed() && !c.categories.count("shape"))
            c = comparison::compare_output(call, data.a, data.b, r.expected, actual, with_declared);
    }
    r.allowances = std::move(c.allowances);
    r.declared = std::move(c.declared);
    if (c.passed() && r.declared.empty()) return;
    r.status = c.passed() ? results::Status::deviates_as_declared : results::Status::failed;
    r.message = comparison::describe(c);
    r.categories = std::move(c.categories);
    r.mismatches = std::move(c.first);
}

// A deviating status (a crash, a refusal, an accepted invalid input) that a status entry of the
// profile declares for this scope and these inputs.
void apply_status_entries(CaseResult& r, const PreparedCase& p,
                          const EvaluationSettings& settings) {
    if (!settings.profile || !settings.platform) return;
    const core::CaseRecord& data = *p.data;
    core::PreparedCall call;
    if (p.call) {
        call = *p.call;
    } else {
        // An invalid case: scope by the op table's type and the attributes as given.
        call = {p.op, data.a.type, {}, {}};
        try {
            call.config = core::resolve_attributes(*p.op, data.attributes);
        } catch (const core::Error&) {
        }
    }
    for (const profiles::Entry* e : active_entries(call, data, settings)) {
        if (!e->status) continue;
        const bool inputs = e->when == profiles::InputsWhen::any ||
                            (data.valid && profiles::inputs_match(e->when, call, data.a, data.b));
        if (!inputs) continue;
        // Only a `when` predicts the status: an entry for any inputs is never stale.
        if (settings.exercised && e->when != profiles::InputsWhen::any &&
            e->when != profiles::InputsWhen::shape_only)
            settings.exercised->insert(e->name);
        if (r.status != *e->status || r.status == results::Status::deviates_as_declared) continue;
        r.status = results::Status::deviates_as_declared;
        r.declared[e->name] = 1;
        r.message = "declared " + std::string(results::name(*e->status)) + " (" + e->name + ", " +
                    e->finding + ") | " + r.message;
    }
}

void check_rejection_reason(CaseResult& r, const std::string& reason, const PreparedCase& p) {
    if (reason.empty() || reason == "other") return;
    const std::string& expected = p.invalidity;
    if (reason == expected) return;
    r.status = results::Status::failed;
    r.categories = {{"rejection_reason", 1}};
    r.message = "rejected for its " + reason + ", but the inputs are invalid because of their " +
                expected + " | " + r.message;
}

CaseResult evaluate(backends::Backend& backend, const PreparedCase& p,
                    const EvaluationSettings& settings, std::int64_t& next_call_id) {
    const core::CaseRecord& data = *p.data;
    CaseResult r;
    const backends::Call call{next_call_id++, p.op,    data.attributes,
                              &data.a,        &data.b, case_timeout(settings.timeout_seconds, data),
                              data.graph_form};
    // Large cases: the expected output is computed while the backend computes its own, so
    // that a backend in another process does not leave the validator's cores idle.
    std::future<core::OpOutput> expected;
    if (data.valid && output_elements(p) >= kOverlapElements)
        expected = std::async(std::launch::async, [&] { return expected_output(p); });
    else if (data.valid)
        r.expected = expected_output(p);
    backends::Result answer = backend.run(call);
    if (expected.valid()) r.expected = expected.get();
    r.status = status_of_answer(answer.outcome, data.valid);
    r.message = std::move(answer.message);
    r.actual = std::move(answer.output);
    const core::TensorView actual =
        answer.shared_output ? *answer.shared_output : core::TensorView(r.actual);
    if (answer.outcome == backends::Outcome::ok && data.valid) compare_into(r, p, actual, settings);
    // An output in the backend's shared memory lives until its next call: a deviation's is
    // copied for shrinking and the repro files; a passing one was compared in place, no copy.
    if (answer.shared_output && r.status != results::Status::passed) r.actual = actual.copy();
    if (answer.outcome == backends::Outcome::rejected && !data.valid)
        check_rejection_reason(r, answer.reason, p);
    return r;
}

// docs/SEMANTICS.md 2.3: the result of integer division by zero is undefined, so a backend may
// refuse the whole call; its defined elements are still checked, in a call without zeros.
bool refused_with_undefined(const CaseResult& r, const core::CaseRecord& data) {
    return data.valid && !r.expected.undefined.empty() &&
           (r.status == results::Status::rejected_valid || r.status == results::Status::error);
}

CaseResult rerun_defined(backends::Backend& backend, const PreparedCase& p,
                         const EvaluationSettings& settings, std::int64_t& next_call_id,
                         const CaseResult& refused) {
    core::CaseRecord defined = *p.data;
    defined.b = with_defined_divisors(defined.b);
    defined.expected = {};
    PreparedCase q = p;  // the same types and shapes: the same call
    q.data = &defined;
    CaseResult r = evaluate(backend, q, settings, next_call_id);
    const auto undefined = static_cast<std::int64_t>(refused.expected.undefined.size());
    const std::string what =
        std::string(refused.status == results::Status::error ? "failed" : "rejected") +
        " the call, which has " + std::to_string(undefined) +
        " undefined elements (integer division by zero): " + refused.message;
    if (r.status == results::Status::passed) {
        r.status = results::Status::refused_undefined;
        r.message = "the backend " + what + " | re-run with divisor 1 there: every defined " +
                    "element matches";
    } else {
        r.message = "re-run with divisor 1 where the backend " + what + " | " + r.message;
    }
    r.undefined_refused = undefined;
    r.defined_b = std::move(defined.b);
    return r;
}

}  // namespace

PreparedCase prepare_case(const core::OpVersion& op, const core::CaseRecord& data) {
    PreparedCase p{&op, &data, std::nullopt, "other", ""};
    try {
        p.call = core::prepare_call(op, data.attributes, data.a, data.b);
    } catch (const core::Error& e) {
        p.invalidity = backends::rejection_reason(e.kind());
        p.error = e.what();
    }
    return p;
}

std::int64_t output_elements(const PreparedCase& p) {
    if (!p.call) throw core::Error(core::ErrorKind::input, p.error);
    return core::element_count(p.call->plan.output);
}

core::OpOutput expected_output(const PreparedCase& p) {
    if (p.data->expected.output) return *p.data->expected.output;
    if (!p.call) throw core::Error(core::ErrorKind::input, p.error);
    if (output_elements(p) > kReferenceLimit)
        return optimized::run_prepared(*p.call, p.data->a, p.data->b);
    return reference::run_prepared(*p.call, p.data->a, p.data->b);
}

CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings,
                         std::int64_t& next_call_id) {
    const auto start = std::chrono::steady_clock::now();
    CaseResult r;
    try {
        const PreparedCase p = prepare_case(op, data);  // the one prepare_call of the case
        r = evaluate(backend, p, settings, next_call_id);
        if (refused_with_undefined(r, data) && !settings.undefined_refusal_is_deviation)
            r = rerun_defined(backend, p, settings, next_call_id, r);
        else if (refused_with_undefined(r, data))
            r.message += " | the call has " + std::to_string(r.expected.undefined.size()) +
                         " undefined elements (integer division by zero); counted as a " +
                         "deviation (--undefined-refusal deviation)";
        const bool shape_only = r.status == results::Status::failed && r.categories.size() == 1 &&
                                r.categories.count("shape");
        if (results::is_deviation(r.status) && (r.status != results::Status::failed || shape_only))
            apply_status_entries(r, p, settings);
    } catch (const std::exception& e) {
        r = CaseResult{};
        r.status = results::Status::error;
        r.message = std::string("the validator could not run this case: ") + e.what();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace runner
