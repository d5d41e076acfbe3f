// `run --shard K/N`: N disjoint parts of any run, chosen by a hash of each case id, so that a
// case's part depends on nothing but its id and N (not on the other options or the plan order).
#pragma once

#include <string>
#include <string_view>

namespace runner {

struct Shard {
    int index = 1;  // 1-based, as CI matrices number their jobs
    int count = 1;
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "K/N" with 1 <= K <= N; throws std::invalid_argument naming what is wrong.
Shard parse_shard(std::string_view text);

bool in_shard(std::string_view case_id, const Shard& shard);

}  // namespace runner
