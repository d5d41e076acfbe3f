// A case with its call prepared once (core::prepare_call: output shape, broadcast plan), and
// its expected output: what every step of judging it reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/case_record.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"

namespace judging {

struct PreparedCase {
    const core::OpVersion* op = nullptr;
    const core::CaseRecord* data = nullptr;
    std::optional<core::PreparedCall> call;  // none: the spec rejects the inputs
    std::int64_t elements = 0;               // the output's element count, with a call
    std::string invalidity;                  // then the reason class (PROTOCOL.md section 6)
    std::string error;                       // and the spec's error
    // Without a call, what a profile entry is scoped by: A's type and the attributes as given
    // (resolved when they can be), with no broadcast plan.
    core::PreparedCall rejected_scope;
};
PreparedCase prepare_case(const core::OpVersion& op, const core::CaseRecord& data);

// The output's element count; throws core::Error when the spec rejects the inputs.
std::int64_t output_elements(const PreparedCase& p);

// The expected output: the case's own expectation, else the reference's (the optimized
// implementation's above 2^20 elements: bit-exact with the reference, proven by the property
// suite, and fast; checked against the oracle at kOracleSamples of its elements, as below).
// Throws core::Error when the spec rejects the inputs.
core::OpOutput expected_output(const PreparedCase& p);

inline constexpr std::int64_t kOracleSamples = 256;

// Checks `expected` against the oracle (oracle::run_at) at `samples` elements spread over the
// output, the first and last among them: values (the one element comparison) and which elements
// are undefined. Throws std::logic_error naming the first element that differs: a bug of the
// validator's own, so the case ends ERROR rather than a backend being judged by it.
void check_against_oracle(const PreparedCase& p, const core::OpOutput& expected,
                          std::int64_t samples);

}  // namespace judging
