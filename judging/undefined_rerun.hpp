// The undefined-element re-run (docs/SEMANTICS.md 2.3, backends/PROTOCOL.md section 10): the
// result of integer division by zero is undefined, so a backend may refuse the whole call; its
// defined elements are still checked, in the same call with every zero divisor made 1.
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor.hpp"
#include "judging/case_result.hpp"

namespace judging {

// A valid call with undefined elements that the backend rejected or failed.
bool refused_with_undefined(const CaseResult& r, bool valid);

// B with every zero divisor replaced by 1: the same call without undefined elements.
core::Tensor with_defined_divisors(const core::Tensor& b);

// The case's result from the re-run's: REFUSED_UNDEFINED when it passed, else the re-run's
// status with a message naming the refusal; the refused call's compilations are counted too.
CaseResult settle_rerun(CaseResult rerun, const CaseResult& refused, core::Tensor defined_b);

// --undefined-refusal deviation: the refusal stands, and its message says why it was not re-run.
void keep_refusal(CaseResult& refused);

}  // namespace judging
