// Running one case on a backend and deciding its status (backends/PROTOCOL.md sections 6, 10
// and 11).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "case_sources/run_case.hpp"
#include "comparison/output_comparison.hpp"
#include "results/case_status.hpp"

namespace runner {

struct EvaluationSettings {
    comparison::ComparisonPolicy policy;
    double timeout_seconds = 10;  // base per case, scaled up with the case's bytes
};

struct CaseResult {
    results::Status status = results::Status::error;
    std::map<std::string, std::int64_t> categories;  // FAILED: mismatches per category
    std::vector<comparison::Mismatch> mismatches;    // FAILED: the first few
    std::set<std::string> allowances;                // PASSED only because of these options
    std::string message;
    core::OpOutput expected;  // valid cases
    core::Tensor actual;      // the backend's output, when it gave one
    double seconds = 0;
};

// The expected output: the case's own expectation, else the reference's (the optimized
// implementation's above 2^20 elements: bit-exact with the reference, proven by the property
// suite, and fast). Throws core::Error when the spec rejects the inputs.
core::OpOutput expected_output(const core::OpVersion& op, const case_sources::CaseData& data);

// The output's element count; throws core::Error when the spec rejects the inputs.
std::int64_t output_elements(const core::OpVersion& op, const case_sources::CaseData& data);

// The timeout of one case: the base, times the case's bytes in units of 64 MiB when larger.
double case_timeout(double base_seconds, const case_sources::CaseData& data);

// Runs the case on the backend (call id `call_id`) and classifies the answer. Never throws:
// a case the validator cannot run ends as ERROR.
CaseResult evaluate_case(backends::Backend& backend, const core::OpVersion& op,
                         const case_sources::CaseData& data, const EvaluationSettings& settings,
                         std::int64_t call_id);

}  // namespace runner
