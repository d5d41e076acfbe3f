// results.jsonl (PROTOCOL.md section 7): one JSON object per line, each written with a single
// write() as soon as its case ends, so that a run killed at any moment leaves complete lines.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validator/case_evaluation.hpp"
#include "validator/shrinking.hpp"

namespace validator {

class ResultsFile {
  public:
    // Creates or truncates `path`. Throws core::Error(input) naming it.
    explicit ResultsFile(const std::string& path);
    ~ResultsFile();
    ResultsFile(const ResultsFile&) = delete;
    ResultsFile& operator=(const ResultsFile&) = delete;

    void append(const nlohmann::json& line);

  private:
    std::string path_;
    int fd_ = -1;
};

// What the results line of a case needs besides its result.
struct CaseRecord {
    const PlannedCase* planned = nullptr;
    const CaseData* data = nullptr;  // null when the case was not built
    const CaseResult* result = nullptr;
    const ShrinkOutcome* minimal = nullptr;  // the shrunk failing case, when there is one
    std::vector<std::string> files;          // repro files written for it
};

// The case's line. A shrunk case adds `shrunk` (the minimal case's id) and `minimal`: its
// shapes, attributes, status, categories, mismatches and message.
nlohmann::json case_line(const CaseRecord& r);

}  // namespace validator
