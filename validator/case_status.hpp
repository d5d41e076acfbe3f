// The statuses a case ends with (PROTOCOL.md section 5).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace validator {

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
};

inline constexpr std::array<Status, 10> kStatuses = {
    Status::passed,      Status::failed,  Status::rejected_valid, Status::accepted_invalid,
    Status::unsupported, Status::crashed, Status::hung,           Status::protocol_error,
    Status::error,       Status::skipped};

std::string_view name(Status s);  // "PASSED", "REJECTED_VALID", ...
std::optional<Status> parse_status(std::string_view text);

// A finding: anything but PASSED, UNSUPPORTED and SKIPPED.
bool is_deviation(Status s);

}  // namespace validator
