// Expected deviations for CI, like deqp-runner's baseline: a file of `PATTERN STATUS` lines.
//   # comment
//   random:onnx.Mul-14:u8:*  FAILED
//   invalid:openvino.Multiply-1:*  ACCEPTED_INVALID
// A pattern is a glob over case ids (`*`, `?`, `[...]`). A deviation (any status but PASSED,
// UNSUPPORTED and SKIPPED) is expected when a line matches its id with the same status.
#pragma once

#include <string>
#include <vector>

#include "validator/case_status.hpp"

namespace validator {

struct Expectation {
    std::string pattern;
    Status status;
    int line = 0;
};

// Throws core::Error(input) naming the file and line of a malformed entry.
std::vector<Expectation> read_expectations(const std::string& path);

// The expectation that covers a case ending with `status`, or nullptr.
const Expectation* find_expectation(const std::vector<Expectation>& e, const std::string& id,
                                    Status status);

// True when some line names this case (any status): for "expected to fail, now passes".
bool is_named(const std::vector<Expectation>& e, const std::string& id);

struct Deviation {
    std::string id;
    Status status;
};

// Writes `ID STATUS` lines, sorted, with a header comment. Throws core::Error(input).
void write_expectations(const std::string& path, std::vector<Deviation> deviations);

}  // namespace validator
