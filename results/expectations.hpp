// Expected deviations for CI, like deqp-runner's baseline: a file of `PATTERN STATUS` lines.
//   # comment
//   random:onnx.Mul-14:u8:*  FAILED
//   invalid:openvino.Multiply-1:*  ACCEPTED_INVALID
//   edge:edge.subnormal.bf16:*  FAILED?
// A pattern is a glob over case ids (`*`, `?`, `[...]`). A deviation (any status but PASSED,
// UNSUPPORTED and SKIPPED) is expected when a line matches its id with the same status. A
// status ending in `?` marks a deviation that depends on the machine (a CPU feature): the case
// may deviate that way or pass, and passing is not reported as news.
// Graph forms: a case run in another form than runtime has the id `<form>/<runtime id>`. A line
// matching that id covers it; so does a line matching its runtime id with the same status (the
// same deviation in another form is the same finding). "Expected to deviate, now passes" is
// reported only for ids a line matches as they are: a form in which a runtime deviation
// disappears is listed among the forms that disagree instead.
#pragma once

#include <string>
#include <vector>

#include "results/case_status.hpp"

namespace results {

struct Expectation {
    std::string pattern;
    Status status;
    int line = 0;
    bool optional = false;  // `STATUS?`: may deviate or pass
};

// True when some line that is not optional names this case (any status): for "expected to
// deviate, now passes".

// Throws core::Error(input) naming the file and line of a malformed entry.
std::vector<Expectation> read_expectations(const std::string& path);

// The expectation that covers a case ending with `status`, or nullptr.
const Expectation* find_expectation(const std::vector<Expectation>& e, const std::string& id,
                                    Status status);

bool is_named(const std::vector<Expectation>& e, const std::string& id);

// What the baseline (--expected) says of one case, recorded on its line so that reports tell a
// deviation the baseline accepts from a new one.
enum class Baseline {
    none,        // no baseline, or the case is neither a deviation nor named by one
    accepted,    // a deviation a line covers with its status
    new_,        // a deviation no line covers: a finding
    now_passes,  // it passes, and a line that is not optional names it
};

// The outcome for a case that ended with `status`; `have_baseline` false: Baseline::none.
Baseline baseline_outcome(bool have_baseline, const std::vector<Expectation>& e,
                          const std::string& id, Status status);

struct Deviation {
    std::string id;
    Status status;
};

// Writes `ID STATUS` lines, sorted, with a header comment. Throws core::Error(input).
void write_expectations(const std::string& path, std::vector<Deviation> deviations);

}  // namespace results
