// Counting statuses as a run goes: the progress line on a terminal and the final table.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "results/case_status.hpp"

namespace runner {

class RunSummary {
  public:
    explicit RunSummary(std::int64_t total_cases);
    void add(const std::string& op_id, results::Status s);
    // A case that an earlier process of a resumed run ended: counted, but not in cases/s.
    void add_previous(const std::string& op_id, results::Status s);

    // Pairs of an exhaustive function (exhaustive16) checked, and the wall time they took.
    void add_sweep(const std::string& function, std::int64_t pairs, double seconds);

    // What the backend's answers said they compiled, shrinking's included.
    void add_compilations(std::int64_t n) { compilations_ += n; }

    std::int64_t count(results::Status s) const;
    std::int64_t done() const { return done_; }
    // "[1200/5000] PASSED 1100 FAILED 3 ... 850 cases/s ETA 4s", no newline; with the pairs
    // per second while exhaustive functions run.
    std::string progress_line() const;
    // One row per exhaustive function: pairs, seconds, pairs per second. Nothing without any.
    void print_sweeps(std::ostream& os) const;
    // One row per op version (table order, then anything else), one column per status seen.
    void print_table(std::ostream& os) const;
    // "312 cases run in 48.2 s: 6.5 cases/s; 97 compilations" (compilations: when any).
    std::string rate_line() const;

  private:
    using Counts = std::array<std::int64_t, results::kStatuses.size()>;
    std::int64_t total_;
    std::int64_t done_ = 0;
    std::int64_t previous_ = 0;
    std::int64_t compilations_ = 0;
    Counts totals_{};
    std::map<std::string, Counts> per_op_;
    struct Sweep {
        std::int64_t pairs = 0;
        double seconds = 0;
    };
    std::vector<std::pair<std::string, Sweep>> sweeps_;  // in the order they ran
    Sweep all_sweeps_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace runner
