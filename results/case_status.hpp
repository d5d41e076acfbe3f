// The statuses a case ends with (backends/PROTOCOL.md section 10).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace results {

enum class Status {
    passed,
    failed,
    rejected_valid,
    accepted_invalid,
    unsupported,
    crashed,
    hung,
    protocol_error,
    error,
    skipped,
    // The backend refused a call with undefined elements (integer division by zero), and the
    // same call with those elements made defined matched: not a deviation unless
    // --undefined-refusal deviation.
    refused_undefined,
    // Every deviating element (or the status) is what a declared behaviour of the backend's
    // profile produces (backends/PROTOCOL.md section 14): neither a finding nor a pass.
    deviates_as_declared,
};

inline constexpr std::array<Status, 12> kStatuses = {Status::passed,
                                                     Status::failed,
                                                     Status::rejected_valid,
                                                     Status::accepted_invalid,
                                                     Status::unsupported,
                                                     Status::crashed,
                                                     Status::hung,
                                                     Status::protocol_error,
                                                     Status::error,
                                                     Status::skipped,
                                                     Status::refused_undefined,
                                                     Status::deviates_as_declared};

std::string_view name(Status s);  // "PASSED", "REJECTED_VALID", ...
std::optional<Status> parse_status(std::string_view text);

// A finding: anything but PASSED, REFUSED_UNDEFINED, DEVIATES_AS_DECLARED, UNSUPPORTED and
// SKIPPED.
bool is_deviation(Status s);
// No answer to judge: the backend crashed, hung or broke the protocol, or the call failed.
bool is_severe(Status s);

// The statuses from worst to best: a crash or a hang hides everything else in a summary, then
// wrong answers, then what was not run, then PASSED. Reports colour a group by its worst case.
inline constexpr std::array<Status, 12> kStatusesWorstFirst = {Status::crashed,
                                                               Status::hung,
                                                               Status::protocol_error,
                                                               Status::error,
                                                               Status::failed,
                                                               Status::accepted_invalid,
                                                               Status::rejected_valid,
                                                               Status::deviates_as_declared,
                                                               Status::unsupported,
                                                               Status::skipped,
                                                               Status::refused_undefined,
                                                               Status::passed};

}  // namespace results
