// What one case came to: the verdict, the baseline's outcome, and what the runner keeps of the
// call for shrinking, the repro files and the results line.
#pragma once

#include <cstdint>
#include <optional>

#include "core/op_output.hpp"
#include "core/tensor.hpp"
#include "results/expectations.hpp"
#include "results/results_line.hpp"

namespace judging {

struct CaseResult {
    results::Verdict verdict;
    results::Baseline baseline = results::Baseline::none;  // what --expected says of the verdict
    core::OpOutput expected;                               // valid cases
    core::Tensor actual;                                   // the backend's output, when it gave one
    double seconds = 0;
    std::int64_t compilations = 0;  // what the backend's answers said they compiled
    // The backend refused the call, which has this many undefined output elements (integer
    // division by zero); the verdict is the re-run's, with `defined_b` as B.
    std::int64_t undefined_refused = 0;
    std::optional<core::Tensor> defined_b;
};

}  // namespace judging
