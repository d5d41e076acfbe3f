#include "runner/run_summary.hpp"

#include <cstdio>
#include <vector>

#include "core/op_table.hpp"

namespace runner {

RunSummary::RunSummary(std::int64_t total_cases) : total_(total_cases) {}

void RunSummary::add(const std::string& op_id, results::Status s) {
    ++done_;
    ++totals_[static_cast<std::size_t>(s)];
    ++per_op_[op_id.empty() ? "(none)" : op_id][static_cast<std::size_t>(s)];
}

void RunSummary::add_previous(const std::string& op_id, results::Status s) {
    add(op_id, s);
    ++previous_;
}

void RunSummary::add_sweep(const std::string& function, std::int64_t pairs, double seconds) {
    if (sweeps_.empty() || sweeps_.back().first != function) sweeps_.push_back({function, {}});
    sweeps_.back().second.pairs += pairs;
    sweeps_.back().second.seconds += seconds;
    all_sweeps_.pairs += pairs;
    all_sweeps_.seconds += seconds;
}

std::int64_t RunSummary::count(results::Status s) const {
    return totals_[static_cast<std::size_t>(s)];
}

std::string RunSummary::rate_line() const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::int64_t ran = done_ - previous_;
    char text[160];
    std::snprintf(text, sizeof text, "%lld cases run in %.1f s: %.2f cases/s",
                  static_cast<long long>(ran), seconds,
                  seconds > 0 ? static_cast<double>(ran) / seconds : 0.0);
    std::string line = text;
    if (compilations_ > 0) line += "; " + std::to_string(compilations_) + " compilations";
    return line;
}

std::string RunSummary::progress_line() const {
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "]";
    for (results::Status s : results::kStatuses)
        if (count(s)) line += " " + std::string(name(s)) + " " + std::to_string(count(s));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done_ - previous_) / seconds : 0;
    char tail[96];
    std::snprintf(tail, sizeof tail, "  %.0f cases/s  ETA %.0fs", rate,
                  rate > 0 ? static_cast<double>(total_ - done_) / rate : 0.0);
    line += tail;
    if (all_sweeps_.seconds > 0) {
        std::snprintf(tail, sizeof tail, "  %.0f M pairs/s",
                      static_cast<double>(all_sweeps_.pairs) / all_sweeps_.seconds / 1e6);
        line += tail;
    }
    return line;
}

void RunSummary::print_sweeps(std::ostream& os) const {
    if (sweeps_.empty()) return;
    char row[160];
    std::snprintf(row, sizeof row, "\n%-32s %14s %10s %14s\n", "exhaustive function", "pairs",
                  "seconds", "M pairs/s");
    os << row;
    auto print = [&](const std::string& name, const Sweep& s) {
        std::snprintf(row, sizeof row, "%-32s %14lld %10.2f %14.1f\n", name.c_str(),
                      static_cast<long long>(s.pairs), s.seconds,
                      s.seconds > 0 ? static_cast<double>(s.pairs) / s.seconds / 1e6 : 0.0);
        os << row;
    };
    for (const auto& [name, sweep] : sweeps_)
        print(name, sweep);
    if (sweeps_.size() > 1) print("(all)", all_sweeps_);
}

void RunSummary::print_table(std::ostream& os) const {
    std::vector<results::Status> columns;
    for (results::Status s : results::kStatuses)
        if (s == results::Status::passed || s == results::Status::failed || count(s))
            columns.push_back(s);
    std::vector<std::string> rows;
    for (const core::OpVersion& op : core::op_versions())
        if (per_op_.count(op.id())) rows.push_back(op.id());
    for (const auto& [op, counts] : per_op_)
        if (!core::find_op_version(op)) rows.push_back(op);
    char cell[32];
    std::snprintf(cell, sizeof cell, "%-20s", "op version");
    os << cell;
    for (results::Status s : columns) {
        std::snprintf(cell, sizeof cell, " %16s", std::string(name(s)).c_str());
        os << cell;
    }
    os << "\n";
    for (const std::string& op : rows) {
        std::snprintf(cell, sizeof cell, "%-20s", op.c_str());
        os << cell;
        for (results::Status s : columns) {
            std::snprintf(cell, sizeof cell, " %16lld",
                          static_cast<long long>(per_op_.at(op)[static_cast<std::size_t>(s)]));
            os << cell;
        }
        os << "\n";
    }
}

}  // namespace runner
