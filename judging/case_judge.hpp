// The judge: the verdict on an implementation's answer to one case (backends/PROTOCOL.md
// sections 6, 11 and 14). `run` judges every backend's answers with it, and `spec` the
// reference's.
#pragma once

#include <set>
#include <string>

#include "backends/backend.hpp"
#include "comparison/output_comparison.hpp"
#include "judging/prepared_case.hpp"
#include "platform/host_platform.hpp"
#include "profiles/backend_profile.hpp"
#include "results/results_line.hpp"

namespace judging {

struct JudgeSettings {
    comparison::ComparisonPolicy policy;
    // --profile: the backend's declared behaviours, judged on `platform`. `exercised` collects
    // the entries whose model (or status condition) predicted a deviation in some case, for the
    // stale report.
    const profiles::Profile* profile = nullptr;
    const platform::Platform* platform = nullptr;
    std::set<std::string>* exercised = nullptr;
};

// The backend's output, in its shared memory or in the answer.
core::TensorView output_of(const backends::Result& answer);

// The verdict on the answer, before the profile's status entries:
// - the outcome gives the status: a valid case answered is then compared with `expected`
//   element by element (FAILED with its categories; DEVIATES_AS_DECLARED where the profile's
//   value entries explain every deviating element), an invalid one accepted is
//   ACCEPTED_INVALID;
// - an invalid call rejected with a reason class (PROTOCOL.md section 6) other than "other"
//   that is not the class of its invalidity is FAILED, category `rejection_reason`.
// `expected` is read for a valid case answered `ok` only.
results::Verdict judge_answer(const PreparedCase& p, const backends::Result& answer,
                              const core::OpOutput& expected, const JudgeSettings& settings);

// A deviating status (a crash, a refusal, an accepted invalid input) that a status entry of the
// profile declares for this scope and these inputs becomes DEVIATES_AS_DECLARED. A FAILED
// verdict is declared only when the shape alone differs.
void declare_status(results::Verdict& v, const PreparedCase& p, const JudgeSettings& settings);

}  // namespace judging
