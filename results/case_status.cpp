#include "results/case_status.hpp"

namespace results {

std::string_view name(Status s) {
    switch (s) {
        case Status::passed:
            return "PASSED";
        case Status::failed:
            return "FAILED";
        case Status::rejected_valid:
            return "REJECTED_VALID";
        case Status::accepted_invalid:
            return "ACCEPTED_INVALID";
        case Status::unsupported:
            return "UNSUPPORTED";
        case Status::crashed:
            return "CRASHED";
        case Status::hung:
            return "HUNG";
        case Status::protocol_error:
            return "PROTOCOL_ERROR";
        case Status::error:
            return "ERROR";
        case Status::skipped:
            return "SKIPPED";
        case Status::refused_undefined:
            return "REFUSED_UNDEFINED";
        case Status::deviates_as_declared:
            return "DEVIATES_AS_DECLARED";
    }
    return "?";
}

std::optional<Status> parse_status(std::string_view text) {
    for (Status s : kStatuses)
        if (name(s) == text) return s;
    return std::nullopt;
}

bool is_deviation(Status s) {
    return s != Status::passed && s != Status::refused_undefined && s != Status::unsupported &&
           s != Status::skipped && s != Status::deviates_as_declared;
}

bool is_severe(Status s) {
    return s == Status::crashed || s == Status::hung || s == Status::protocol_error ||
           s == Status::error;
}

}  // namespace results
