// Running one case on a backend and deciding its status (backends/PROTOCOL.md sections 6, 10
// and 11).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "case_sources/run_case.hpp"
#include "comparison/output_comparison.hpp"
#include "profiles/backend_profile.hpp"
#include "results/case_status.hpp"

namespace runner {

struct EvaluationSettings {
    comparison::ComparisonPolicy policy;
    double timeout_seconds = 10;  // base per case, scaled up with the case's bytes
    // --undefined-refusal deviation: a call refused because of undefined elements stays
    // REJECTED_VALID or ERROR, and is not re-run with them made defined.
    bool undefined_refusal_is_deviation = false;
    // --profile: the backend's declared behaviours, judged on `platform`. `exercised` collects
    // the entries whose model (or status condition) predicted a deviation in some case, for the
    // stale report.
    const profiles::Profile* profile = nullptr;
    const platform::Platform* platform = nullptr;
    std::set<std::string>* exercised = nullptr;
};

struct CaseResult {
    results::Status status = results::Status::error;
    std::map<std::string, std::int64_t> categories;  // FAILED: mismatches per category
    std::vector<comparison::Mismatch> mismatches;    // FAILED: the first few
    std::set<std::string> allowances;                // PASSED only because of these options
    // Profile entries that explain this case's deviation (elements, or 1 for a status):
    // all of it for DEVIATES_AS_DECLARED, part of it for FAILED.
    std::map<std::string, std::int64_t> declared;
    std::string message;
    core::OpOutput expected;  // valid cases
    core::Tensor actual;      // the backend's output, when it gave one
    double seconds = 0;
    // The backend refused the call, which has this many undefined output elements (integer
    // division by zero); the status is the re-run's, with `defined_b` as B.
    std::int64_t undefined_refused = 0;
    std::optional<core::Tensor> defined_b;
};

// A case with its call prepared once (core::prepare_call: output shape, broadcast plan): what
// every step of judging it reads.
struct PreparedCase {
    const core::OpVersion* op = nullptr;
    const core::CaseRecord* data = nullptr;
    std::optional<core::PreparedCall> call;  // none: the spec rejects the inputs
    std::string invalidity;                  // then the reason class (PROTOCOL.md section 6)
    std::string error;                       // and the spec's error
};
PreparedCase prepare_case(const core::OpVersion& op, const core::CaseRecord& data);

// The expected output: the case's own expectation, else the reference's (the optimized
// implementation's above 2^20 elements: bit-exact with the reference, proven by the property
// suite, and fast). Throws core::Error when the spec rejects the inputs.
core::OpOutput expected_output(const PreparedCase& p);

// The output's element count; throws core::Error when the spec rejects the inputs.
std::int64_t output_elements(const PreparedCase& p);

// Runs the case on the backend and classifies the answer; call ids are taken from
// `next_call_id` (two when the call is re-run). Never throws: a case the validator cannot run
// ends as ERROR.
// - A valid call that the backend rejects or fails while it has undefined elements is re-run
//   with every zero divisor made 1; when that passes, the case is
//   REFUSED_UNDEFINED, otherwise it takes the re-run's status (PROTOCOL.md section 10).
// - An invalid call rejected with a reason class (PROTOCOL.md section 6) other than "other"
//   that is not the class of its invalidity is FAILED, category `rejection_reason`.
CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const core::CaseRecord& data, const EvaluationSettings& settings,
                         std::int64_t& next_call_id);

}  // namespace runner
