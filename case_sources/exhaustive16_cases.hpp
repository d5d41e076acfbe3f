// `exhaustive16`: all 2^32 (a, b) pairs of f16, bf16, i16 and u16, for every version that allows
// them, streamed as blocks that are never materialized as pairs: A = a range of bit patterns as
// a row, B = a range as a column, output [i][j] = A[j] op B[i]. A block's id names its ranges,
// so that any block, down to one pair, is replayable: "exhaustive16:onnx.Mul-14:f16:
// b=0x0100-0x01ff" (A every pattern) or "exhaustive16:onnx.Div-14:i16:a=0x8000:b=0xffff".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "case_sources/exhaustive_functions.hpp"
#include "case_sources/run_case.hpp"

namespace case_sources {

inline constexpr std::uint32_t kRowsPerBlock = 256;  // 16.7 M pairs, 32 MiB of output

struct PairBlock {
    std::uint32_t a_first = 0, a_last = 0xffff;  // inclusive ranges of bit patterns
    std::uint32_t b_first = 0, b_last = 0xffff;
    std::int64_t a_count() const { return std::int64_t{a_last} - a_first + 1; }
    std::int64_t b_count() const { return std::int64_t{b_last} - b_first + 1; }
    std::int64_t pairs() const { return a_count() * b_count(); }
};

struct Exhaustive16Key {
    ExhaustiveFunction function;
    PairBlock block;
};

std::string exhaustive16_case_id(const Exhaustive16Key& key);

// nullopt when `id` is not an exhaustive16 id; throws std::invalid_argument naming the part that
// is wrong when it is one but malformed.
std::optional<Exhaustive16Key> parse_exhaustive16_case_id(std::string_view id);

// Legacy broadcasting (ONNX-1/6) cannot broadcast A, so there A holds every row in full.
core::CaseRecord exhaustive16_case_data(const Exhaustive16Key& key);
PlannedCase exhaustive16_planned_case(const Exhaustive16Key& key);

// The one-pair block of a flat output index of the key's block.
PairBlock pair_at(const PairBlock& block, std::int64_t index);

// Every function's blocks of kRowsPerBlock divisors; integer division's zero divisor, where
// every element is undefined, is a block of its own so that a backend refusing x/0 loses only it.
std::vector<PlannedCase> plan_exhaustive16_cases();

}  // namespace case_sources
