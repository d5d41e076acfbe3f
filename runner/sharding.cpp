#include "runner/sharding.hpp"

#include <charconv>
#include <cstdint>
#include <stdexcept>

#include "core/fnv_hash.hpp"

namespace runner {
namespace {

int parse_part(std::string_view text, std::string_view whole) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < 1)
        throw std::invalid_argument("--shard '" + std::string(whole) +
                                    "': expected K/N with whole numbers 1 <= K <= N");
    return value;
}

// FNV-1a over the id, then splitmix64's finalizer so that every bit of the id moves the low
// bits the modulo reads.
std::uint64_t id_hash(std::string_view id) {
    std::uint64_t h = core::fnv1a64(id);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
    return h ^ (h >> 31);
}

}  // namespace

Shard parse_shard(std::string_view text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos)
        throw std::invalid_argument("--shard '" + std::string(text) +
                                    "': expected K/N, e.g. 2/8 for the second of eight parts");
    const Shard s{parse_part(text.substr(0, slash), text),
                  parse_part(text.substr(slash + 1), text)};
    if (s.index > s.count)
        throw std::invalid_argument("--shard '" + std::string(text) + "': part " +
                                    std::to_string(s.index) + " of only " +
                                    std::to_string(s.count));
    return s;
}

bool in_shard(std::string_view case_id, const Shard& shard) {
    return id_hash(case_id) % static_cast<std::uint64_t>(shard.count) ==
           static_cast<std::uint64_t>(shard.index - 1);
}

}  // namespace runner
