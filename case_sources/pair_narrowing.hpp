// Any valid case narrowed to a run of its output elements: "<id>:pairs=FIRST-LAST" is the case's
// output elements FIRST..LAST (flat, row-major) as two same-shape 1-D inputs A[k], B[k], the
// pairs broadcasting gave them, so that shrinking can cut any case down to the one pair that
// fails, and the id replays it. The attributes are made valid for equal shapes: legacy
// broadcasting off (broadcast=0, no axis), OpenVINO's auto_broadcast kept (pdpd with an axis that
// equal 1-D shapes allow). The source's own expected output is dropped: the reference computes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "case_sources/run_case.hpp"

namespace case_sources {

struct PairRange {
    std::int64_t first = 0, last = 0;  // inclusive flat output indices
    std::int64_t count() const { return last - first + 1; }
};

// "<id>:pairs=FIRST-LAST".
std::string pairs_case_id(std::string_view id, PairRange range);

struct PairsId {
    std::string_view base;  // the id narrowed (may itself end in ":pairs=...")
    PairRange range;
};
// nullopt when `id` does not end in ":pairs=..."; throws std::invalid_argument naming the id
// when the suffix is malformed (FIRST > LAST, not numbers).
std::optional<PairsId> parse_pairs_id(std::string_view id);

// The record narrowed to the range's pairs. Throws std::invalid_argument for an invalid case (it
// has no output elements) or a range outside the output; core::Error when the case does not
// prepare.
core::CaseRecord narrowed_to_pairs(const core::CaseRecord& data, PairRange range);

// The planned case narrowed: its id suffixed, its build narrowed (which throws when the case
// built is invalid).
PlannedCase narrowed_case(PlannedCase c, PairRange range);

}  // namespace case_sources
