// Exhaustive 16-bit sweep: optimized::run equals reference::run bit for bit (NaN payloads
// included) and marks the same elements undefined, over all 2^32 (a, b) operand pairs of every
// distinct 16-bit function of the op-version table.
//
//   exhaustive_16bit_test --list                  the functions, one per line; exit 1 if one of
//                                                 kRequired is missing from the table
//   exhaustive_16bit_test FUNCTION SHARD SHARDS   divisors b of shard SHARD (1-based) of SHARDS
//   exhaustive_16bit_test --smoke                 a few divisor blocks of every function
//
// property_tests/exhaustive_16bit_tests.cmake registers one ctest test per (function, shard).
// Each process runs optimized::run on one thread, so that `ctest -j2` keeps both cores busy with
// two shards instead of two processes competing for the same OpenMP threads.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "generators/op_combinations.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "optimized/run.hpp"
#include "reference/run.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

constexpr std::int64_t kPatterns = 65536;  // every 16-bit pattern
constexpr std::int64_t kBlockRows = 64;    // divisors per batch: outputs of 8 MiB each
constexpr std::size_t kReported = 5;       // differing pairs printed per run

// The ten distinct 16-bit functions (docs/SEMANTICS.md sections 1-2: the 16-bit types are f16,
// bf16, i16 and u16; integer division rounds by truncation or floor). Written out so that a
// table that lost one fails loudly instead of silently sweeping less.
constexpr std::string_view kRequired[] = {
    "f16_multiply", "f16_divide",       "bf16_multiply",    "bf16_divide",      "i16_multiply",
    "u16_multiply", "i16_divide_trunc", "i16_divide_floor", "u16_divide_trunc", "u16_divide_floor"};

// "i16_divide_floor", "f16_divide": what the element function depends on. m_pythondiv has no
// effect on floats (docs/SEMANTICS.md section 2), so float division has no rounding suffix.
std::string function_name(const Combination& c) {
    std::string out = std::string(core::name(c.type)) + (c.is_division() ? "_divide" : "_multiply");
    if (c.is_division() && c.is_integer())
        out += c.expected_rounding() == core::IntegerRounding::floor ? "_floor" : "_trunc";
    return out;
}

// One combination per distinct function: the first in table order whose rule is numpy, which
// the layout (65536) x (k, 1) needs. Every other version computes the same function: reference
// and optimized evaluate an element from (element type, arithmetic, resolved integer rounding)
// alone; the versions of one table row family differ only in allowed types, broadcasting and
// attributes (ONNX Div truncates like Divide-1 with m_pythondiv=false, and both implementations
// ignore the rounding for floats).
std::map<std::string, Combination> functions() {
    std::map<std::string, Combination> out;
    for (const Combination& c : all_combinations())
        if (core::byte_size(c.type) == 2 && c.rule == core::BroadcastRule::numpy)
            out.try_emplace(function_name(c), c);
    return out;
}

// kRequired entries that functions() lacks, each reported on stderr.
int missing_functions(const std::map<std::string, Combination>& found) {
    int missing = 0;
    for (std::string_view name : kRequired)
        if (!found.contains(std::string(name))) {
            std::fprintf(stderr, "FAIL: no op version computes %.*s (op table changed?)\n",
                         static_cast<int>(name.size()), name.data());
            ++missing;
        }
    return missing;
}

// Element i holds bit pattern first + i (16-bit types store their bits little-endian, like the
// host, in core::Tensor).
core::Tensor bit_patterns(core::ElementType t, core::Shape shape, std::int64_t first) {
    core::Tensor out = core::Tensor::zeros(t, std::move(shape));
    for (std::int64_t i = 0; i < out.size(); ++i) {
        const auto bits = static_cast<std::uint16_t>(first + i);
        std::memcpy(out.bytes.data() + 2 * i, &bits, 2);
    }
    return out;
}

std::uint16_t bits_at(const core::Tensor& t, std::int64_t i) {
    std::uint16_t bits;
    std::memcpy(&bits, t.bytes.data() + 2 * i, 2);
    return bits;
}

struct Mismatches {
    std::int64_t count = 0;
    std::vector<std::string> first;

    void add(std::int64_t b_first, std::int64_t i, const std::string& what) {
        ++count;
        if (first.size() >= kReported) return;
        char pair[48];
        std::snprintf(pair, sizeof pair,
                      "a=0x%04x b=0x%04x: ", static_cast<unsigned>(i % kPatterns),
                      static_cast<unsigned>(b_first + i / kPatterns));
        first.push_back(pair + what);
    }
};

// Both operands NaN: IEEE 754-2019 §6.2.3 leaves open which input's payload the result carries
// (quieted), and which one a multiply returns depends on the operand order the compiler picks;
// either is accepted, nothing else. a and b are the operands' bit patterns.
bool either_nan_payload(core::ElementType type, std::uint16_t a, std::uint16_t b,
                        std::uint16_t result) {
    if (type != core::ElementType::f16 && type != core::ElementType::bf16) return false;
    const bool half = type == core::ElementType::f16;
    const std::uint16_t inf = half ? 0x7C00 : 0x7F80, quiet = half ? 0x0200 : 0x0040;
    const auto is_nan = [&](std::uint16_t x) { return (x & 0x7FFF) > inf; };
    return is_nan(a) && is_nan(b) && (result == (a | quiet) || result == (b | quiet));
}

void compare_values(const core::OpOutput& opt, const core::OpOutput& ref, std::int64_t b_first,
                    Mismatches& m) {
    if (opt.value.bytes == ref.value.bytes) return;  // the common case: one memcmp
    for (std::int64_t i = 0; i < ref.value.size(); ++i) {
        const std::uint16_t x = bits_at(opt.value, i), y = bits_at(ref.value, i);
        if (x == y) continue;
        const auto a = static_cast<std::uint16_t>(i % kPatterns);
        const auto b = static_cast<std::uint16_t>(b_first + i / kPatterns);
        if (either_nan_payload(ref.value.type, a, b, x)) continue;
        char text[64];
        std::snprintf(text, sizeof text, "optimized 0x%04x, reference 0x%04x", x, y);
        m.add(b_first, i, text);
    }
}

void compare_undefined(const core::OpOutput& opt, const core::OpOutput& ref, std::int64_t b_first,
                       Mismatches& m) {
    if (opt.undefined == ref.undefined) return;
    std::vector<std::int64_t> only_opt, only_ref;
    std::ranges::set_difference(opt.undefined, ref.undefined, std::back_inserter(only_opt));
    std::ranges::set_difference(ref.undefined, opt.undefined, std::back_inserter(only_ref));
    for (std::int64_t i : only_opt)
        m.add(b_first, i, "undefined only in optimized");
    for (std::int64_t i : only_ref)
        m.add(b_first, i, "undefined only in reference");
}

// One function's fixed inputs and the optimized output buffer reused across blocks.
class Sweep {
  public:
    explicit Sweep(const Combination& c)
        : c_(c),
          attributes_(attributes_for(c, std::nullopt, false)),
          a_(bit_patterns(c.type, {kPatterns}, 0)) {}

    // Divisors b in [first, first + rows): output [i][j] = A[j] op B[i], with A[j] = j and
    // B[i] = first + i.
    void block(std::int64_t first, std::int64_t rows, Mismatches& m) {
        const core::Tensor b = bit_patterns(c_.type, {rows, 1}, first);
        optimized::run_into(*c_.op, attributes_, a_, b, optimized_, 1);
        const core::OpOutput ref = reference::run(*c_.op, attributes_, a_, b);
        compare_values(optimized_, ref, first, m);
        compare_undefined(optimized_, ref, first, m);
    }

  private:
    Combination c_;
    core::AttributeMap attributes_;
    core::Tensor a_;
    core::OpOutput optimized_;
};

// Prints the verdict of one run; returns the exit status.
int report(const std::string& what, const Mismatches& m, double seconds) {
    if (m.count == 0) {
        std::printf("PASS %s (%.1f s)\n", what.c_str(), seconds);
        return 0;
    }
    std::printf("FAIL %s: %lld differing elements (%.1f s); first ones:\n", what.c_str(),
                static_cast<long long>(m.count), seconds);
    for (const std::string& line : m.first)
        std::printf("  %s\n", line.c_str());
    return 1;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run_shard(const Combination& c, const std::string& name, int shard, int shards) {
    const std::int64_t begin = kPatterns * (shard - 1) / shards;
    const std::int64_t end = kPatterns * shard / shards;
    Sweep sweep(c);
    Mismatches m;
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t first = begin; first < end; first += kBlockRows)
        sweep.block(first, std::min(kBlockRows, end - first), m);
    char what[160];
    std::snprintf(what, sizeof what, "%s (%s) shard %d/%d, b in [0x%04llx, 0x%04llx]", name.c_str(),
                  c.name().c_str(), shard, shards, static_cast<long long>(begin),
                  static_cast<long long>(end - 1));
    return report(what, m, seconds_since(start));
}

// Divisor blocks around the interesting values of the 16-bit types: 0 and the smallest
// subnormals; f16 1.0 (0x3c00); bf16 1.0 (0x3f80); f16 65504 and inf (0x7bff, 0x7c00); bf16 inf
// (0x7f80); INT16_MAX, INT16_MIN and -0 (0x7fff-0x8000); -1 and negative NaNs (0xffff).
constexpr std::int64_t kSmokeRows = 8;
constexpr std::int64_t kSmokeBlocks[] = {0x0000, 0x3bfc, 0x3f7c, 0x7bfc, 0x7f7c, 0x7ffc, 0xfff8};

// The comparison must see a single flipped bit; otherwise a sweep could pass on anything.
bool comparison_detects_a_flip() {
    core::OpOutput x{bit_patterns(core::ElementType::u16, {kPatterns}, 0), {}};
    core::OpOutput y = x;
    y.value.bytes[1234] ^= std::byte{0x10};
    Mismatches m;
    compare_values(x, y, 0, m);
    compare_undefined(x, y, 0, m);
    // The NaN allowance takes either operand's quieted payload and nothing else.
    using core::ElementType;
    const bool nan_rule = either_nan_payload(ElementType::f16, 0x7C01, 0xFC02, 0x7E01) &&
                          either_nan_payload(ElementType::f16, 0x7C01, 0xFC02, 0xFE02) &&
                          !either_nan_payload(ElementType::f16, 0x7C01, 0xFC02, 0x7E03) &&
                          !either_nan_payload(ElementType::f16, 0x7C01, 0x3C00, 0x7E01) &&
                          either_nan_payload(ElementType::bf16, 0x7F81, 0xFF82, 0xFFC2) &&
                          !either_nan_payload(ElementType::bf16, 0x7F81, 0xFF82, 0x7FC0) &&
                          !either_nan_payload(ElementType::u16, 0x7C01, 0x7C01, 0x7C01);
    return m.count == 1 && nan_rule;
}

int run_smoke(const std::map<std::string, Combination>& found) {
    int failed = missing_functions(found);
    if (!comparison_detects_a_flip()) {
        std::printf("FAIL: the comparison missed a flipped bit\n");
        ++failed;
    }
    for (const auto& [name, c] : found) {
        Sweep sweep(c);
        Mismatches m;
        const auto start = std::chrono::steady_clock::now();
        for (std::int64_t first : kSmokeBlocks)
            sweep.block(first, kSmokeRows, m);
        failed += report(name + " (" + c.name() + ") smoke blocks", m, seconds_since(start));
    }
    return failed == 0 ? 0 : 1;
}

// The exit code ctest reads as "skipped" (SKIP_RETURN_CODE).
constexpr int kSkipped = 77;

int usage() {
    std::fprintf(stderr,
                 "usage: exhaustive_16bit_test --list | --smoke | FUNCTION SHARD SHARDS\n"
                 "  SHARD is 1..SHARDS; shards split the 65536 divisors evenly\n");
    return 2;
}

int main_checked(int argc, char** argv) {
    const std::map<std::string, Combination> found = functions();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 1 && args[0] == "--list") {
        for (const auto& entry : found)
            std::printf("%s\n", entry.first.c_str());
        return missing_functions(found) == 0 ? 0 : 1;
    }
    // ctest registers the sweeps once per kernel set (ELTWISE_ISA); an absent one is skipped.
    if (const auto isa = optimized::environment_isa(); isa && !optimized::cpu_supports(*isa)) {
        std::printf("SKIPPED: ELTWISE_ISA=%s: this CPU does not run it\n",
                    std::string(optimized::name(*isa)).c_str());
        return kSkipped;
    }
    std::printf("kernel set: %s\n", std::string(optimized::name(optimized::active_isa())).c_str());
    if (args.size() == 1 && args[0] == "--smoke") return run_smoke(found);
    if (args.size() != 3) return usage();
    const auto it = found.find(args[0]);
    const int shard = std::stoi(args[1]), shards = std::stoi(args[2]);
    if (shards < 1 || shards > kPatterns || shard < 1 || shard > shards) return usage();
    if (it == found.end()) {
        missing_functions(found);
        std::fprintf(stderr, "FAIL: unknown function %s\n", args[0].c_str());
        return 1;
    }
    return run_shard(it->second, it->first, shard, shards);
}

}  // namespace
}  // namespace property_tests

int main(int argc, char** argv) {
    try {
        return property_tests::main_checked(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "FAIL: %s\n", e.what());
        return 1;
    }
}
