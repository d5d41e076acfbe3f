// A deviating case line's call as its repro files saved it (runner/repro_files.cpp): the inputs,
// the backend's answer, and what the scope of a profile entry reads of it. Triage judges these
// calls again, offline, with candidate profile entries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "comparison/category.hpp"
#include "core/broadcast.hpp"
#include "core/case_record.hpp"
#include "core/element_type.hpp"
#include "results/results_line.hpp"

namespace triage {

struct SavedCall {
    std::string id;         // the case line's
    std::string shown_id;   // the call the files hold: the minimal case's when it was shrunk
    core::CaseRecord data;  // op, attributes, A, B, validity, graph form
    std::optional<core::Tensor> actual;                // the backend's output, when it gave one
    results::Status status = results::Status::failed;  // the case line's
    comparison::CategoryCounts categories;             // the case line's
};

// What a profile entry's scope reads of a call (profiles::in_scope).
struct CallKey {
    std::string op;
    core::ElementType dtype = core::ElementType::f32;
    core::BroadcastRule rule = core::kDefaultBroadcastRule;
    std::string form;
    friend auto operator<=>(const CallKey&, const CallKey&) = default;
};
CallKey key_of(const SavedCall& c);

// The line's saved call: its files (of the minimal case when there is one, with the minimal
// case's attributes), found where the line names them or, when the results directory has moved,
// below `results_dir` (their `cases/<dir>/` tail). Throws core::Error(input) saying what is
// missing: no op, no repro files, a file that cannot be read.
SavedCall load_saved_call(const results::CaseLine& line, const std::string& results_dir);

}  // namespace triage
