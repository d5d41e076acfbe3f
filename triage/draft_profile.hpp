// `eltwise-validate triage`: a results file's deviations judged again, offline, against every
// behaviour model, and drafted into a profile (backends/PROTOCOL.md section 14) that the profile
// parser accepts as it is.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "comparison/category.hpp"
#include "triage/draft_entries.hpp"

namespace triage {

struct UnexplainedCase {
    std::string id;
    comparison::CategoryCounts categories;  // the case line's
    std::string note;                       // what the search left out
};

struct UntriagedCase {
    std::string id;
    results::Status status;
    std::string reason;
};

struct Draft {
    std::string source;                        // the results file
    std::string backend;                       // its run line's label, or name and version
    std::string arch, emulator;                // the platform condition of every entry
    std::int64_t deviations = 0;               // deviating case lines read
    std::vector<DraftEntry> entries;           // value entries first, then status entries
    std::vector<UnexplainedCase> unexplained;  // FAILED, and no model explains them
    std::vector<UntriagedCase> untriaged;      // no saved call, or a status triage does not draft
};

// Reads the results file (results::read_results: a bad file is core::Error(input) naming its
// line) and each deviating case's repro files; FAILED cases get value entries (or, when only the
// shape is wrong and no model explains it, a FAILED shape_only status entry), CRASHED, HUNG and
// REJECTED_VALID cases status entries.
Draft triage_results(const std::string& results_path);

// The draft as TOML: every entry with finding = "TODO" and a comment counting its cases with
// one example id; at the end, as comments, what no model explains by category and what was not
// triaged.
std::string draft_toml(const Draft& draft);

// What `triage` prints: the counts, each entry, what no model explains by category.
std::string triage_summary(const Draft& draft);

// The unexplained cases per mismatch category: cases, and the first id.
std::map<comparison::Category, std::pair<std::int64_t, std::string>, comparison::NameOrder>
unexplained_by_category(const Draft& draft);

}  // namespace triage
