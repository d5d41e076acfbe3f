#include "validator/run_summary.hpp"

#include <cstdio>
#include <vector>

#include "core/op_table.hpp"

namespace validator {

RunSummary::RunSummary(std::int64_t total_cases) : total_(total_cases) {}

void RunSummary::add(const std::string& op_id, Status s) {
    ++done_;
    ++totals_[static_cast<std::size_t>(s)];
    ++per_op_[op_id.empty() ? "(none)" : op_id][static_cast<std::size_t>(s)];
}

std::int64_t RunSummary::count(Status s) const {
    return totals_[static_cast<std::size_t>(s)];
}

std::string RunSummary::progress_line() const {
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "]";
    for (Status s : kStatuses)
        if (count(s)) line += " " + std::string(name(s)) + " " + std::to_string(count(s));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
    char tail[64];
    std::snprintf(tail, sizeof tail, "  %.0f cases/s  ETA %.0fs", rate,
                  rate > 0 ? static_cast<double>(total_ - done_) / rate : 0.0);
    return line + tail;
}

void RunSummary::print_table(std::ostream& os) const {
    std::vector<Status> columns;
    for (Status s : kStatuses)
        if (s == Status::passed || s == Status::failed || count(s)) columns.push_back(s);
    std::vector<std::string> rows;
    for (const core::OpVersion& op : core::op_versions())
        if (per_op_.count(op.id())) rows.push_back(op.id());
    for (const auto& [op, counts] : per_op_)
        if (!core::find_op_version(op)) rows.push_back(op);
    char cell[32];
    std::snprintf(cell, sizeof cell, "%-20s", "op version");
    os << cell;
    for (Status s : columns) {
        std::snprintf(cell, sizeof cell, " %16s", std::string(name(s)).c_str());
        os << cell;
    }
    os << "\n";
    for (const std::string& op : rows) {
        std::snprintf(cell, sizeof cell, "%-20s", op.c_str());
        os << cell;
        for (Status s : columns) {
            std::snprintf(cell, sizeof cell, " %16lld",
                          static_cast<long long>(per_op_.at(op)[static_cast<std::size_t>(s)]));
            os << cell;
        }
        os << "\n";
    }
}

}  // namespace validator
