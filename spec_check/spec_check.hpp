// Checking an implementation against the spec cases: each check run, its output judged against
// the expected one by the judge (judging::judge_answer), as `run` judges a backend's.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "spec_cases/spec_case.hpp"

namespace spec_check {

using Evaluate = std::function<core::OpOutput(const core::OpVersion&, const core::AttributeMap&,
                                              const core::Tensor&, const core::Tensor&)>;

struct CheckFailure {
    std::string label;
    std::string message;
};

struct CaseOutcome {
    std::string name;
    int checks = 0;
    std::vector<CheckFailure> failures;
    bool passed() const { return failures.empty() && checks > 0; }
};

// Runs every check of the case. `reports_undefined`: the implementation marks undefined
// elements itself (the reference does), so its list must equal the expected one.
CaseOutcome check_spec_case(const spec_cases::SpecCase& c, const Evaluate& evaluate,
                            bool reports_undefined);

}  // namespace spec_check
