// optimized::run against reference::run, bit for bit (NaN ≡ NaN, undefined lists equal), for
// every op version × every element type it allows × every rule and rounding it offers, on
// shapes that reach every kernel shape, every tail length, gathered tiles, empty tensors and
// multi-threaded runs, with every kernel set this CPU can run.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "optimized/kernels.hpp"
#include "optimized/run.hpp"
#include "optimized/tests/isa_under_test.hpp"
#include "reference/run.hpp"

namespace {

using core::AttributeMap;
using core::BroadcastRule;
using core::ElementType;
using core::OpVersion;
using core::Shape;
using core::Tensor;

// ---------------------------------------------------------------------------------------------
// Deterministic data with edge values mixed in.

template <class T>
std::vector<T> edge_values() {
    if constexpr (std::is_integral_v<T>) {
        using L = std::numeric_limits<T>;
        return {T(0),  T(1), T(-1),    T(2),     T(-2),           T(3),
                T(-7), T(7), L::min(), L::max(), T(L::min() + 1), T(L::max() - 1)};
    } else if constexpr (std::is_same_v<T, float>) {
        std::vector<T> v{0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -3.0f, 1.0f / 3, 1e30f};
        for (std::uint32_t bits : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7FA00000u,
                                   0x7F7FFFFFu, 0x00800000u, 0x00000001u, 0x807FFFFFu, 0x00400000u})
            v.push_back(std::bit_cast<float>(bits));
        return v;
    } else if constexpr (std::is_same_v<T, double>) {
        std::vector<T> v{0.0, -0.0, 1.0, -1.0, 0.5, -3.0, 1.0 / 3, 1e300};
        for (std::uint64_t bits :
             {0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF8000000000000ull,
              0x7FF4000000000001ull, 0x7FEFFFFFFFFFFFFFull, 0x0010000000000000ull,
              0x0000000000000001ull, 0x800FFFFFFFFFFFFFull})
            v.push_back(std::bit_cast<double>(bits));
        return v;
    } else {
        // f16 / bf16: zeros, ±1, 0.5, -3, inf, NaNs (quiet, signalling, payload), max, min
        // normal, min and max subnormal.
        const bool half = std::is_same_v<T, core::Half>;
        std::vector<std::uint16_t> bits =
            half ? std::vector<std::uint16_t>{0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0xC200,
                                              0x7C00, 0xFC00, 0x7E00, 0x7D01, 0xFE3F, 0x7BFF,
                                              0xFBFF, 0x0400, 0x0001, 0x83FF, 0x3555}
                 : std::vector<std::uint16_t>{0x0000, 0x8000, 0x3F80, 0xBF80, 0x3F00, 0xC040,
                                              0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC1, 0x7F7F,
                                              0xFF7F, 0x0080, 0x0001, 0x807F, 0x3EAB};
        std::vector<T> v;
        for (auto b : bits)
            v.push_back(T{b});
        return v;
    }
}

template <class T>
T small_value(std::mt19937_64& rng) {
    const auto k = static_cast<int>(rng() % 41) - 20;
    if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(std::is_signed_v<T> ? k : k + 20);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(k) / T(4);
    } else if constexpr (std::is_same_v<T, core::Half>) {
        return core::half_from_double(k / 4.0);
    } else {
        return core::bfloat16_from_double(k / 4.0);
    }
}

template <class T>
T random_bits(std::mt19937_64& rng) {
    const std::uint64_t r = rng();
    if constexpr (sizeof(T) == 1) return std::bit_cast<T>(static_cast<std::uint8_t>(r));
    if constexpr (sizeof(T) == 2) return std::bit_cast<T>(static_cast<std::uint16_t>(r));
    if constexpr (sizeof(T) == 4) return std::bit_cast<T>(static_cast<std::uint32_t>(r));
    if constexpr (sizeof(T) == 8) return std::bit_cast<T>(r);
}

// A quarter edge values, a third small values (many exact quotients, some zeros), the rest
// random bit patterns. The fill depends only on the seed.
template <class T>
void fill(Tensor& t, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto edges = edge_values<T>();
    for (T& x : t.values<T>()) {
        const auto pick = rng() % 12;
        x = pick < 3   ? edges[rng() % edges.size()]
            : pick < 7 ? small_value<T>(rng)
                       : random_bits<T>(rng);
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison

template <class T>
std::uint64_t bits_of(T x) {
    if constexpr (sizeof(T) == 1) return std::bit_cast<std::uint8_t>(x);
    if constexpr (sizeof(T) == 2) return std::bit_cast<std::uint16_t>(x);
    if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(x);
    if constexpr (sizeof(T) == 8) return std::bit_cast<std::uint64_t>(x);
}

template <class T>
bool is_nan(T x) {
    if constexpr (std::is_integral_v<T>) {
        return false;
    } else if constexpr (std::is_floating_point_v<T>) {
        return x != x;
    } else {
        return (x.bits & 0x7FFF) > (std::is_same_v<T, core::Half> ? 0x7C00 : 0x7F80);
    }
}

// Counts mismatching elements and describes the first few.
template <class T>
std::string compare_values(const Tensor& expected, const Tensor& actual) {
    const auto e = expected.values<T>(), a = actual.values<T>();
    std::ostringstream out;
    std::int64_t mismatches = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (bits_of(e[i]) == bits_of(a[i]) || (is_nan(e[i]) && is_nan(a[i]))) continue;
        if (++mismatches <= 5)
            out << " [" << i << "] expected 0x" << std::hex << bits_of(e[i]) << " got 0x"
                << bits_of(a[i]) << std::dec;
    }
    if (mismatches == 0) return {};
    return std::to_string(mismatches) + " of " + std::to_string(e.size()) +
           " elements differ:" + out.str();
}

std::string describe(const OpVersion& op, ElementType type, const Shape& a, const Shape& b,
                     const AttributeMap& attributes) {
    std::string s = op.id() + ":" + std::string(core::name(type)) + ":" + core::to_string(a) + ":" +
                    core::to_string(b);
    for (const auto& [k, v] : attributes)
        s += ":" + k + "=" + v;
    return s;
}

std::vector<optimized::Isa> isas() {
    return optimized::testing::isas_under_test();
}

std::string isa_name(optimized::Isa isa) {
    return std::string(optimized::name(isa));
}

// One case: the reference once, then the optimized run with every ISA and thread count.
void expect_same(const OpVersion& op, ElementType type, const Shape& shape_a, const Shape& shape_b,
                 const AttributeMap& attributes, const std::vector<int>& threads) {
    const std::string what = describe(op, type, shape_a, shape_b, attributes);
    const std::uint64_t seed = std::hash<std::string>{}(what);
    Tensor a = Tensor::zeros(type, shape_a), b = Tensor::zeros(type, shape_b);
    core::dispatch(type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            fill<T>(a, seed);
            fill<T>(b, seed ^ 0x9E3779B97F4A7C15ull);
        }
    });
    const core::OpOutput expected = reference::run(op, attributes, a, b);
    for (const auto isa : isas()) {
        optimized::set_isa_override(isa);
        for (const int n : threads) {
            const core::OpOutput actual = optimized::run(op, attributes, a, b, n);
            const std::string where =
                what + " isa=" + isa_name(isa) + " threads=" + std::to_string(n);
            ASSERT_EQ(actual.value.type, expected.value.type) << where;
            ASSERT_EQ(actual.value.shape, expected.value.shape) << where;
            const std::string diff = core::dispatch(type, [&](auto tag) -> std::string {
                using T = typename decltype(tag)::type;
                if constexpr (std::is_same_v<T, bool>) {
                    return "boolean";
                } else {
                    return compare_values<T>(expected.value, actual.value);
                }
            });
            EXPECT_EQ(diff, "") << where;
            EXPECT_EQ(actual.undefined, expected.undefined) << where;
        }
    }
    optimized::set_isa_override(std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// Rules and shapes

// Every combination of the rule-selecting attributes the version offers (from the op table).
std::vector<AttributeMap> rule_variants(const OpVersion& op) {
    std::vector<AttributeMap> variants{{}};
    for (const auto& spec : op.attributes) {
        std::vector<std::string> values;
        if (spec.type == core::AttributeType::boolean) values = {"true", "false"};
        if (spec.name == "auto_broadcast" || spec.name == "broadcast")
            values.assign(spec.allowed.begin(), spec.allowed.end());
        if (values.empty()) continue;
        std::vector<AttributeMap> next;
        for (const auto& v : variants)
            for (const auto& value : values) {
                AttributeMap m = v;
                m[std::string(spec.name)] = value;
                next.push_back(m);
            }
        variants = next;
    }
    return variants;
}

struct ShapeCase {
    Shape a, b;
    AttributeMap extra;  // axis attributes
};

// Same shapes: every tail length up to 2x the widest vector (32 bytes of i8) and beyond.
void add_identical(std::vector<ShapeCase>& cases) {
    for (std::int64_t n = 0; n <= 70; ++n)
        cases.push_back({{n}, {n}, {}});
    for (Shape s : {Shape{}, Shape{0, 3}, Shape{3, 0, 2}, Shape{2, 3, 4, 5}, Shape{256, 56}})
        cases.push_back({s, s, {}});
}

// A tensor times a one-element B: vector⊗scalar tails.
void add_scalar_b(std::vector<ShapeCase>& cases, const Shape& b) {
    for (std::int64_t n = 0; n <= 70; ++n)
        cases.push_back({{n}, b, {}});
}

void add_numpy(std::vector<ShapeCase>& cases) {
    add_scalar_b(cases, {});
    add_scalar_b(cases, {1});
    for (std::int64_t n = 0; n <= 70; ++n)  // scalar⊗vector tails
        cases.push_back({{}, {n}, {}});
    const std::vector<std::pair<Shape, Shape>> pairs = {{{}, {}},
                                                        {{1, 1, 1}, {1, 1}},
                                                        {{8, 1, 6, 1}, {7, 1, 5}},
                                                        {{2, 1, 5}, {1, 4, 5}},
                                                        {{6, 5}, {2, 1, 5}},
                                                        {{1, 5, 3}, {5, 2, 1, 3}},
                                                        {{100, 5}, {100, 1}},
                                                        {{5, 100}, {5, 1}},
                                                        {{3, 200}, {3, 1}},
                                                        {{3, 200}, {200}},
                                                        {{7, 1}, {1, 9}},
                                                        {{1, 9}, {7, 1}},
                                                        {{0, 3}, {1, 3}},
                                                        {{2, 0}, {2, 1}},
                                                        {{2, 1}, {2, 0}},
                                                        {{16, 1, 60, 1}, {9, 1, 7}},
                                                        {{3, 1, 70}, {1, 5, 70}},
                                                        {{33, 65}, {33, 1}},
                                                        // Tiles computed row by row (innermost
                                                        // span >= 32, an input gathered): vs,
                                                        // sv and vv rows, short tail rows.
                                                        {{5, 1, 40}, {1, 6, 1}},
                                                        {{1, 6, 1}, {5, 1, 40}},
                                                        {{4, 1, 3, 33}, {1, 5, 1, 33}},
                                                        {{3, 1, 2, 1}, {1, 4, 1, 37}}};
    for (const auto& [a, b] : pairs)
        cases.push_back({a, b, {}});
}

void add_pdpd(std::vector<ShapeCase>& cases) {
    add_scalar_b(cases, {});
    const Shape a{2, 3, 4, 5};
    const auto axis = [](const char* v) { return AttributeMap{{"auto_broadcast_axis", v}}; };
    cases.push_back({a, {3, 4}, axis("1")});
    cases.push_back({a, {3, 1}, axis("1")});
    cases.push_back({a, {4, 5}, axis("-1")});
    cases.push_back({a, {4, 5}, axis("2")});
    cases.push_back({a, {1, 3}, axis("0")});
    cases.push_back({a, {}, {}});
    cases.push_back({a, {5}, {}});
    cases.push_back({{40, 70}, {40}, axis("0")});
}

void add_onnx_legacy(std::vector<ShapeCase>& cases) {
    add_scalar_b(cases, {});
    const Shape a{2, 3, 4, 5};
    const auto axis = [](const char* v) { return AttributeMap{{"axis", v}}; };
    for (const Shape& b : {Shape{}, Shape{1, 1}, Shape{5}, Shape{4, 5}})
        cases.push_back({a, b, {}});
    cases.push_back({a, {3, 4}, axis("1")});
    cases.push_back({a, {2}, axis("0")});
    cases.push_back({{40, 70}, {40}, axis("0")});
}

std::vector<ShapeCase> small_cases(BroadcastRule rule) {
    std::vector<ShapeCase> cases;
    add_identical(cases);
    if (rule == BroadcastRule::numpy) add_numpy(cases);
    if (rule == BroadcastRule::pdpd) add_pdpd(cases);
    if (rule == BroadcastRule::onnx_legacy) add_onnx_legacy(cases);
    return cases;
}

// Above the threading threshold, several tiles per thread: vv, vs (per row), sv, gathered.
std::vector<ShapeCase> large_cases(BroadcastRule rule) {
    std::vector<ShapeCase> cases{{{300001}, {300001}, {}}};
    if (rule == BroadcastRule::numpy) {
        cases.push_back({{40, 1, 300, 1}, {5, 1, 5}, {}});
        cases.push_back({{600, 512}, {600, 1}, {}});
        cases.push_back({{}, {300007}, {}});
        // Row-by-row tiles: the outer products (16,1,45,1)x(40,1,50) and (40,1,50)x(16,1,45,1)
        // (sv and vs rows) and a vv row tile.
        cases.push_back({{16, 1, 45, 1}, {40, 1, 50}, {}});
        cases.push_back({{40, 1, 50}, {16, 1, 45, 1}, {}});
        cases.push_back({{30, 1, 50}, {1, 200, 50}, {}});
    }
    if (rule == BroadcastRule::pdpd)
        cases.push_back({{3000, 100}, {3000}, {{"auto_broadcast_axis", "0"}}});
    if (rule == BroadcastRule::onnx_legacy) cases.push_back({{300007}, {}, {}});
    return cases;
}

AttributeMap merged(AttributeMap base, const AttributeMap& extra) {
    base.insert(extra.begin(), extra.end());
    return base;
}

// ---------------------------------------------------------------------------------------------
// The parameterized sweep: one test per (op version, element type).

struct VersionType {
    const OpVersion* op;
    ElementType type;
};

void PrintTo(const VersionType& v, std::ostream* os) {
    *os << v.op->id() << ":" << core::name(v.type);
}

std::vector<VersionType> version_types(std::string_view domain = {}) {
    std::vector<VersionType> out;
    for (const auto& op : core::op_versions())
        if (domain.empty() || op.domain == domain)
            for (const auto type : op.element_types)
                out.push_back({&op, type});
    return out;
}

class OptimizedMatchesReference : public ::testing::TestWithParam<VersionType> {};

TEST_P(OptimizedMatchesReference, SmallShapesEveryRule) {
    const auto [op, type] = GetParam();
    for (const auto& rule_attributes : rule_variants(*op)) {
        const auto rule = core::resolve_attributes(*op, rule_attributes).broadcast.rule;
        for (const auto& c : small_cases(rule))
            expect_same(*op, type, c.a, c.b, merged(rule_attributes, c.extra), {1, 2});
    }
}

std::string test_name(const ::testing::TestParamInfo<VersionType>& info) {
    std::string id = info.param.op->id() + "_" + std::string(core::name(info.param.type));
    for (char& c : id)
        if (c == '.' || c == '-') c = '_';
    return id;
}

INSTANTIATE_TEST_SUITE_P(EveryVersionAndType, OptimizedMatchesReference,
                         ::testing::ValuesIn(version_types()), test_name);

// Large tensors cost reference time, so only the OpenVINO versions run them: together they
// allow every element type, every rule and both roundings, and share all kernels with ONNX.
class OptimizedMatchesReferenceLarge : public ::testing::TestWithParam<VersionType> {};

TEST_P(OptimizedMatchesReferenceLarge, OneAndTwoThreads) {
    const auto [op, type] = GetParam();
    for (const auto& rule_attributes : rule_variants(*op)) {
        const auto rule = core::resolve_attributes(*op, rule_attributes).broadcast.rule;
        for (const auto& c : large_cases(rule))
            expect_same(*op, type, c.a, c.b, merged(rule_attributes, c.extra), {1, 2});
    }
}

INSTANTIATE_TEST_SUITE_P(OpenVinoVersionsAndTypes, OptimizedMatchesReferenceLarge,
                         ::testing::ValuesIn(version_types("openvino")), test_name);

// ---------------------------------------------------------------------------------------------
// Errors and threads

core::ErrorKind error_kind(const std::function<void()>& f) {
    try {
        f();
    } catch (const core::Error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "no core::Error thrown";
    return core::ErrorKind::input;
}

TEST(OptimizedErrors, RejectsWhatTheReferenceRejects) {
    const OpVersion& mul = *core::find_op_version("openvino.Multiply-1");
    const Tensor f = Tensor::zeros(ElementType::f32, {3}), i = Tensor::zeros(ElementType::i32, {3});
    const Tensor g = Tensor::zeros(ElementType::f32, {2});
    const auto same_kind = [&](const AttributeMap& attrs, const Tensor& a, const Tensor& b) {
        EXPECT_EQ(error_kind([&] { optimized::run(mul, attrs, a, b); }),
                  error_kind([&] { reference::run(mul, attrs, a, b); }));
    };
    same_kind({}, f, i);
    same_kind({}, f, g);
    same_kind({{"auto_broadcast", "bogus"}}, f, f);
    Tensor short_buffer = f;
    short_buffer.bytes.resize(4);
    EXPECT_EQ(error_kind([&] { optimized::run(mul, {}, short_buffer, f); }),
              core::ErrorKind::input);
}

// A reused output is overwritten everywhere, undefined slots included (they must read 0).
TEST(OptimizedRunInto, OverwritesAReusedOutput) {
    const OpVersion& div = *core::find_op_version("openvino.Divide-1");
    Tensor a = Tensor::zeros(ElementType::i32, {70000}), b = a;
    fill<std::int32_t>(a, 1);
    fill<std::int32_t>(b, 2);
    const core::OpOutput expected = reference::run(div, {}, a, b);
    ASSERT_FALSE(expected.undefined.empty());
    core::OpOutput out{Tensor::zeros(ElementType::i32, {70000}), {1, 2, 3}};
    for (auto& byte : out.value.bytes)
        byte = std::byte{0xA5};
    optimized::run_into(div, {}, a, b, out, 2);
    EXPECT_EQ(out.value.bytes, expected.value.bytes);
    EXPECT_EQ(out.undefined, expected.undefined);
}

TEST(OptimizedThreads, DefaultThreadCountIsSettable) {
    optimized::set_thread_count(2);
    EXPECT_EQ(optimized::thread_count(), 2);
    optimized::set_thread_count(0);
    EXPECT_GE(optimized::thread_count(), 1);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// 16-bit floats, exhaustively: every f16 / bf16 bit pattern (NaN payloads, subnormals, both
// zeros) times and over a shuffled copy of all patterns (vv) and a handful of scalars (vs, sv),
// through every kernel set, bit for bit against the reference.

template <class T>
void expect_same_tensors(const OpVersion& op, const Tensor& a, const Tensor& b,
                         const std::string& what) {
    const core::OpOutput expected = reference::run(op, {}, a, b);
    for (const auto isa : isas()) {
        optimized::set_isa_override(isa);
        const core::OpOutput actual = optimized::run(op, {}, a, b, 1);
        const std::string where = what + " isa=" + isa_name(isa);
        ASSERT_EQ(actual.value.shape, expected.value.shape) << where;
        EXPECT_EQ((compare_values<T>(expected.value, actual.value)), "") << where;
        // Stricter than compare_values: every bit, NaN payloads included, except where both
        // inputs are NaN (which payload wins then depends on the operand order the compiler
        // picks for a commutative multiply, in the reference as well).
        const auto e = expected.value.values<T>(), g = actual.value.values<T>();
        const auto x = a.values<T>(), y = b.values<T>();
        std::int64_t differ = 0;
        for (std::size_t i = 0; i < e.size(); ++i) {
            const bool both_nan =
                is_nan(x[x.size() == 1 ? 0 : i]) && is_nan(y[y.size() == 1 ? 0 : i]);
            if (!both_nan && bits_of(e[i]) != bits_of(g[i])) ++differ;
        }
        EXPECT_EQ(differ, 0) << where;
        EXPECT_EQ(actual.undefined, expected.undefined) << where;
    }
    optimized::set_isa_override(std::nullopt);
}

template <class T>
void exhaustive_16bit(ElementType type, const std::vector<std::uint16_t>& scalars) {
    std::vector<std::uint16_t> all(65536), shuffled(65536);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<std::uint16_t>(i);
    shuffled = all;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(42));
    const auto tensor = [&](const std::vector<std::uint16_t>& bits) {
        Tensor t = Tensor::zeros(type, {static_cast<std::int64_t>(bits.size())});
        std::memcpy(t.bytes.data(), bits.data(), bits.size() * 2);
        return t;
    };
    const Tensor a = tensor(all), b = tensor(shuffled);
    for (const char* id : {"openvino.Multiply-1", "openvino.Divide-1"}) {
        const OpVersion& op = *core::find_op_version(id);
        expect_same_tensors<T>(op, a, b, std::string(id) + " vv");
        for (const std::uint16_t s : scalars) {
            const Tensor scalar = tensor({s});
            expect_same_tensors<T>(op, a, scalar, std::string(id) + " vs " + std::to_string(s));
            expect_same_tensors<T>(op, scalar, a, std::string(id) + " sv " + std::to_string(s));
        }
    }
}

TEST(OptimizedExhaustive16Bit, BFloat16EveryPattern) {
    // 1, -3, 0.1 (inexact), max, min normal, a subnormal, 0, inf, quiet and signalling NaN.
    exhaustive_16bit<core::BFloat16>(ElementType::bf16, {0x3F80, 0xC040, 0x3DCD, 0x7F7F, 0x0080,
                                                         0x0001, 0x0000, 0x7F80, 0x7FC0, 0xFF81});
}

// The AVX-512 bf16 kernels that round with integers: the whole kernel on AVX-512 CPUs without
// AVX512-BF16, but only the subnormal fallback on CPUs with it, so they are checked here
// directly: every pattern times a shuffled copy, and every pattern times a few scalars.
TEST(OptimizedAvx512Bf16, IntegerRoundingKernelsEveryPattern) {
    if (!optimized::cpu_supports(optimized::Isa::avx512)) GTEST_SKIP() << "no AVX-512 here";
    std::vector<std::uint16_t> all(65536), shuffled(65536);
    std::iota(all.begin(), all.end(), std::uint16_t{0});
    shuffled = all;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
    const auto tensor = [](const std::vector<std::uint16_t>& bits) {
        Tensor t = Tensor::zeros(ElementType::bf16, {static_cast<std::int64_t>(bits.size())});
        std::memcpy(t.bytes.data(), bits.data(), bits.size() * 2);
        return t;
    };
    using optimized::Operands;
    const Tensor a = tensor(all);
    std::vector<std::pair<Tensor, Operands>> bs{{tensor(shuffled), Operands::vector_vector}};
    for (const std::uint16_t s : {0x3F80, 0x0001, 0x0080, 0x7F7F, 0x7FC1, 0x0000, 0xC040})
        bs.emplace_back(tensor({s}), Operands::vector_scalar);
    for (const auto op : {optimized::Operation::multiply, optimized::Operation::divide_truncate}) {
        const OpVersion& version = *core::find_op_version(
            op == optimized::Operation::multiply ? "onnx.Mul-14" : "onnx.Div-14");
        for (const auto& [b, shape] : bs) {
            const core::OpOutput expected = reference::run(version, {}, a, b);
            Tensor actual = Tensor::zeros(ElementType::bf16, a.shape);
            optimized::avx512_integer_bf16_kernels().get(op, shape)(
                a.values<core::BFloat16>().data(), b.values<core::BFloat16>().data(),
                actual.values<core::BFloat16>().data(), a.size());
            EXPECT_EQ(compare_values<core::BFloat16>(expected.value, actual), "")
                << version.id() << " B of " << b.size() << " element(s)";
        }
    }
}

TEST(OptimizedExhaustive16Bit, Float16EveryPattern) {
    exhaustive_16bit<core::Half>(ElementType::f16, {0x3C00, 0xC200, 0x2E66, 0x7BFF, 0x0400, 0x0001,
                                                    0x0000, 0x7C00, 0x7E00, 0xFD01});
}

// i32 by one divisor (the reciprocal path): every divisor class against edge and random
// dividends, floor and truncation, through every kernel set.
TEST(OptimizedScalarDivisor, Int32EveryDivisorClass) {
    using L = std::numeric_limits<std::int32_t>;
    std::vector<std::int32_t> dividends = edge_values<std::int32_t>();
    std::mt19937_64 rng(7);
    for (int i = 0; i < 4000; ++i)
        dividends.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(rng())));
    for (std::int32_t k = -300; k <= 300; ++k)  // exact multiples of small divisors
        for (std::int32_t d : {3, 7, 49, 641, 65537})
            dividends.push_back(k * d);
    Tensor a = Tensor::zeros(ElementType::i32, {static_cast<std::int64_t>(dividends.size())});
    std::memcpy(a.bytes.data(), dividends.data(), dividends.size() * sizeof(std::int32_t));
    const OpVersion& op = *core::find_op_version("openvino.Divide-1");
    for (const std::int32_t d : {1, -1, 2, -2, 3, -3, 7, 49, -49, 641, 65537, 1000003, -1000003,
                                 L::max(), L::min(), L::min() + 1, L::max() - 1, 0}) {
        Tensor b = Tensor::zeros(ElementType::i32, {});
        std::memcpy(b.bytes.data(), &d, sizeof d);
        for (const char* floor : {"true", "false"}) {
            const AttributeMap attributes{{"m_pythondiv", floor}};
            const core::OpOutput expected = reference::run(op, attributes, a, b);
            for (const auto isa : isas()) {
                optimized::set_isa_override(isa);
                const core::OpOutput actual = optimized::run(op, attributes, a, b, 1);
                const std::string where =
                    "d=" + std::to_string(d) + " floor=" + floor + " isa=" + isa_name(isa);
                EXPECT_TRUE(actual.value.bytes == expected.value.bytes) << where;
                EXPECT_EQ(actual.undefined, expected.undefined) << where;
            }
            optimized::set_isa_override(std::nullopt);
        }
    }
}

// A 1-D tensor of `type` holding `values` (their bits: T is the storage type).
template <class T>
Tensor tensor_of(ElementType type, const std::vector<T>& values) {
    Tensor t = Tensor::zeros(type, {static_cast<std::int64_t>(values.size())});
    std::memcpy(t.bytes.data(), values.data(), values.size() * sizeof(T));
    return t;
}

// Divide-1 on each (A, B) case, floor and truncation, through every kernel set: the reference's
// bits and undefined elements exactly.
template <class T>
void expect_division_cases(ElementType type, const std::vector<std::pair<Tensor, Tensor>>& cases) {
    const OpVersion& op = *core::find_op_version("openvino.Divide-1");
    for (const char* floor : {"true", "false"}) {
        const AttributeMap attributes{{"m_pythondiv", floor}};
        for (std::size_t c = 0; c < cases.size(); ++c) {
            const auto& [a, b] = cases[c];
            const core::OpOutput expected = reference::run(op, attributes, a, b);
            for (const auto isa : isas()) {
                optimized::set_isa_override(isa);
                const core::OpOutput actual = optimized::run(op, attributes, a, b, 1);
                const std::string where = std::string(core::name(type)) + " case " +
                                          std::to_string(c) + " floor=" + floor +
                                          " isa=" + isa_name(isa);
                ASSERT_TRUE(actual.value.bytes == expected.value.bytes)
                    << where << compare_values<T>(expected.value, actual.value);
                ASSERT_EQ(actual.undefined, expected.undefined) << where;
            }
            optimized::set_isa_override(std::nullopt);
        }
    }
}

// 8-bit division, exhaustively: all 65536 (a, b) pairs as vectors, and every value against every
// scalar divisor and dividend (zero included), floor and truncation, every kernel set.
template <class T>
void expect_every_8bit_pair(ElementType type) {
    const auto tensor = [&](const std::vector<std::uint8_t>& v) {
        Tensor t = Tensor::zeros(type, {static_cast<std::int64_t>(v.size())});
        std::memcpy(t.bytes.data(), v.data(), v.size());
        return t;
    };
    std::vector<std::uint8_t> xs(65536 + 7), ys(65536 + 7), all(256 + 5);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        xs[i] = static_cast<std::uint8_t>(i);
        ys[i] = static_cast<std::uint8_t>(i >> 8);
    }
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<std::uint8_t>(i);
    std::vector<std::pair<Tensor, Tensor>> cases{{tensor(xs), tensor(ys)}};
    for (int s = 0; s < 256; ++s) {
        cases.emplace_back(tensor(all), tensor({static_cast<std::uint8_t>(s)}));
        cases.emplace_back(tensor({static_cast<std::uint8_t>(s)}), tensor(all));
    }
    expect_division_cases<T>(type, cases);
}

TEST(OptimizedExhaustive8Bit, DivideEveryU8Pair) {
    expect_every_8bit_pair<std::uint8_t>(ElementType::u8);
}

TEST(OptimizedExhaustive8Bit, DivideEveryI8Pair) {
    expect_every_8bit_pair<std::int8_t>(ElementType::i8);
}

// 16-, 32- and 64-bit division (the AVX2 path divides in f32 or f64, 64-bit only below 2^51 in
// magnitude; the AVX-512 one below 2^53): operands on both sides of those bounds and of each
// type's own, MIN, MAX, -1, 0 and random ones, mixed in every vector so that the exact lanes
// and the fallback meet, as vectors and against scalars.
// -x modulo 2^N, through the unsigned type: -MIN would overflow.
template <class T>
T negated(T x) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(U{0} - static_cast<U>(x)));
}

template <class T>
std::vector<T> division_values() {
    using L = std::numeric_limits<T>;
    std::vector<T> out{
        T(0), T(1), T(2), T(3), T(7), T(10), L::max(), L::min(), T(L::max() - 1), T(L::max() / 3)};
    for (const int k : {7, 8, 15, 16, 24, 31, 32, 50, 51, 52, 53, 54, 62})
        for (const std::int64_t delta : {-1, 0, 1}) {
            if (k >= L::digits + (std::is_signed_v<T> ? 1 : 0)) continue;
            const auto p =
                static_cast<T>((std::uint64_t{1} << k) + static_cast<std::uint64_t>(delta));
            out.push_back(p);
            if constexpr (std::is_signed_v<T>) out.push_back(negated(p));
        }
    if constexpr (std::is_signed_v<T>)
        out.insert(out.end(), {T(-1), T(-2), T(-3), T(-7), T(L::min() + 1)});
    std::mt19937_64 rng(53);
    constexpr int kBits = 8 * sizeof(T);
    while (out.size() < 96) {
        const int bits = 1 + static_cast<int>(rng() % kBits);
        const auto x = static_cast<T>(rng() >> (64 - bits));
        out.push_back(rng() & 1 ? x : negated(x));
    }
    return out;
}

template <class T>
void expect_division_pairs(ElementType type) {
    const std::vector<T> v = division_values<T>();
    std::vector<T> xs, ys;  // every pair
    for (const T x : v)
        for (const T y : v) {
            xs.push_back(x);
            ys.push_back(y);
        }
    std::vector<std::pair<Tensor, Tensor>> cases{{tensor_of<T>(type, xs), tensor_of<T>(type, ys)}};
    for (const T s : v) {
        cases.emplace_back(tensor_of<T>(type, v), tensor_of<T>(type, {s}));
        cases.emplace_back(tensor_of<T>(type, {s}), tensor_of<T>(type, v));
    }
    expect_division_cases<T>(type, cases);
}

// 16-bit division where a quotient estimate is closest to going wrong: every divisor d, with the
// dividends k|d| (an exact quotient) and k|d| + |d| - 1 (just below the next integer) for the
// largest k and a few small ones, both signs; floor and truncation, every kernel set.
template <class T>
void expect_every_16bit_divisor_at_the_edges(ElementType type) {
    using L = std::numeric_limits<T>;
    std::vector<T> xs, ys;
    for (std::int64_t d = L::min(); d <= L::max(); ++d) {
        const std::int64_t m = d < 0 ? -d : d;
        if (m == 0) continue;
        const std::int64_t top = (std::is_signed_v<T> ? std::int64_t{L::max()} + 1 : L::max()) / m;
        for (const std::int64_t k :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, top - 1, top})
            for (const std::int64_t n : {k * m, k * m + m - 1})
                for (const std::int64_t sign : {1, -1}) {
                    const std::int64_t x = sign * n;
                    if (k < 0 || x < L::min() || x > L::max()) continue;
                    xs.push_back(static_cast<T>(x));
                    ys.push_back(static_cast<T>(d));
                }
    }
    expect_division_cases<T>(type, {{tensor_of<T>(type, xs), tensor_of<T>(type, ys)}});
}

TEST(OptimizedDivisionPairs, Int16EveryDivisorAtTheEdges) {
    expect_every_16bit_divisor_at_the_edges<std::int16_t>(ElementType::i16);
}

TEST(OptimizedDivisionPairs, UInt16EveryDivisorAtTheEdges) {
    expect_every_16bit_divisor_at_the_edges<std::uint16_t>(ElementType::u16);
}

// Every 16-bit pair (2^32 per type, rounding and kernel set: minutes, so not in the default
// run): optimized_tests --gtest_also_run_disabled_tests --gtest_filter='*Every16BitPair*'
template <class T>
void expect_every_16bit_pair(ElementType type) {
    std::vector<T> dividends(65536);
    for (std::size_t i = 0; i < dividends.size(); ++i)
        dividends[i] = static_cast<T>(i);
    const Tensor a = tensor_of<T>(type, dividends);
    for (std::int64_t d = 1; d < 65536 && !::testing::Test::HasFatalFailure(); ++d)
        expect_division_cases<T>(
            type, {{a, tensor_of<T>(type, std::vector<T>(dividends.size(), static_cast<T>(d)))}});
}

TEST(OptimizedDivisionPairs, DISABLED_Every16BitPairInt16) {
    expect_every_16bit_pair<std::int16_t>(ElementType::i16);
}

TEST(OptimizedDivisionPairs, DISABLED_Every16BitPairUInt16) {
    expect_every_16bit_pair<std::uint16_t>(ElementType::u16);
}

TEST(OptimizedDivisionPairs, Int16) {
    expect_division_pairs<std::int16_t>(ElementType::i16);
}

TEST(OptimizedDivisionPairs, UInt16) {
    expect_division_pairs<std::uint16_t>(ElementType::u16);
}

TEST(OptimizedDivisionPairs, Int32) {
    expect_division_pairs<std::int32_t>(ElementType::i32);
}

TEST(OptimizedDivisionPairs, UInt32) {
    expect_division_pairs<std::uint32_t>(ElementType::u32);
}

TEST(OptimizedDivisionPairs, Int64AroundTwoTo51And53) {
    expect_division_pairs<std::int64_t>(ElementType::i64);
}

TEST(OptimizedDivisionPairs, UInt64AroundTwoTo51And53) {
    expect_division_pairs<std::uint64_t>(ElementType::u64);
}

// a / d, floor and truncation, through every kernel set against the reference, bit for bit;
// false (after a failure) to stop the caller.
template <class T>
bool divides_by_scalar_like_reference(ElementType type, const Tensor& a, T d) {
    const OpVersion& op = *core::find_op_version("openvino.Divide-1");
    Tensor b = Tensor::zeros(type, {});
    std::memcpy(b.bytes.data(), &d, sizeof d);
    for (const char* floor : {"true", "false"}) {
        const AttributeMap attributes{{"m_pythondiv", floor}};
        const core::OpOutput expected = reference::run(op, attributes, a, b);
        for (const auto isa : isas()) {
            optimized::set_isa_override(isa);
            const core::OpOutput actual = optimized::run(op, attributes, a, b, 1);
            optimized::set_isa_override(std::nullopt);
            const std::string where = std::string(core::name(type)) + " d=" + std::to_string(d) +
                                      " floor=" + floor + " isa=" + isa_name(isa);
            EXPECT_EQ((compare_values<T>(expected.value, actual.value)), "") << where;
            EXPECT_EQ(actual.undefined, expected.undefined) << where;
            if (::testing::Test::HasFailure()) return false;
        }
    }
    return true;
}

// i32 and u32 by one divisor (the AVX2 multiply-and-shift path): about 2000 divisors (every
// |d| < 300, powers of two and their neighbours, MIN, MAX, random) against edge, small, random
// dividends and the multiples of d and their neighbours, floor and truncation, through every
// kernel set, bit for bit.
template <class T>
std::vector<T> divisors_32() {
    using L = std::numeric_limits<T>;
    std::vector<T> out;
    const std::int64_t lo = std::is_signed_v<T> ? -299 : 0;
    for (std::int64_t d = lo; d < 300; ++d)
        out.push_back(static_cast<T>(d));
    for (int k = 1; k < 32; ++k)
        for (const std::int64_t delta : {-1, 0, 1}) {
            const std::int64_t p = (std::int64_t{1} << k) + delta;
            out.push_back(static_cast<T>(p));
            if constexpr (std::is_signed_v<T>) out.push_back(static_cast<T>(-p));
        }
    out.insert(out.end(), {L::min(), L::max(), T(L::min() + 1), T(L::max() - 1), T(L::max() / 2),
                           T(L::max() / 2 + 1), T(L::max() / 3), T(L::max() / 7)});
    std::mt19937_64 rng(2024);
    while (out.size() < 2000) {
        const auto r = rng();
        const int bits = 1 + static_cast<int>(r % 32);
        const std::uint32_t x = static_cast<std::uint32_t>(rng()) >> (32 - bits);
        out.push_back(static_cast<T>(r & (1ull << 40) ? 0u - x : x));
    }
    return out;
}

template <class T>
void expect_scalar_divisors_32(ElementType type) {
    using L = std::numeric_limits<T>;
    std::vector<T> common = edge_values<T>();
    for (std::int64_t k = -70; k <= 70; ++k)
        common.push_back(static_cast<T>(k));
    common.insert(common.end(), {T(L::min() + 2), T(L::max() - 2), T(L::max() / 2),
                                 T(L::max() / 2 + 1), T(L::min() / 2), T(L::min() / 2 - 1)});
    std::mt19937_64 rng(11);
    for (int i = 0; i < 400; ++i)
        common.push_back(static_cast<T>(static_cast<std::uint32_t>(rng())));
    for (const T d : divisors_32<T>()) {
        std::vector<T> dividends = common;
        // q·d and q·d ± 1 (wrapping) for quotients near 0, the middle and the extremes.
        const std::int64_t wide_d = d;
        const std::int64_t q_max = wide_d == 0 ? 0 : (std::int64_t{L::max()} / wide_d);
        for (const std::int64_t q :
             {std::int64_t{1}, std::int64_t{-1}, std::int64_t{2}, std::int64_t{-2}, q_max,
              q_max - 1, -q_max, -q_max + 1, q_max / 2, -q_max / 2, q_max / 3})
            for (const std::int64_t delta : {-1, 0, 1})
                dividends.push_back(static_cast<T>(
                    static_cast<std::uint32_t>(static_cast<std::uint64_t>(q * wide_d + delta))));
        Tensor a = Tensor::zeros(type, {static_cast<std::int64_t>(dividends.size())});
        std::memcpy(a.bytes.data(), dividends.data(), dividends.size() * sizeof(T));
        if (!divides_by_scalar_like_reference(type, a, d)) return;
    }
}

TEST(OptimizedScalarDivisor, Int32ManyDivisors) {
    expect_scalar_divisors_32<std::int32_t>(ElementType::i32);
}

TEST(OptimizedScalarDivisor, UInt32ManyDivisors) {
    expect_scalar_divisors_32<std::uint32_t>(ElementType::u32);
}

namespace {

// i16 and u16 by one divisor (the AVX2 multiply-and-shift path in 16-bit lanes): every dividend
// against |d| < 40, the powers of two and their neighbours, MIN, MAX and random divisors, floor
// and truncation, through every kernel set, bit for bit.
template <class T>
void expect_scalar_divisors_16(ElementType type) {
    using L = std::numeric_limits<T>;
    std::vector<T> divisors{L::min(), L::max(), T(L::min() + 1), T(L::max() - 1)};
    for (std::int64_t d = std::is_signed_v<T> ? -39 : 0; d < 40; ++d)
        divisors.push_back(static_cast<T>(d));
    for (int k = 6; k < 16; ++k)
        for (const int delta : {-1, 0, 1}) {
            const int p = (1 << k) + delta;
            divisors.push_back(static_cast<T>(p));
            if constexpr (std::is_signed_v<T>) divisors.push_back(static_cast<T>(-p));
        }
    std::mt19937 rng(16);
    for (int i = 0; i < 16; ++i)
        divisors.push_back(static_cast<T>(rng()));
    Tensor a = Tensor::zeros(type, {65536 + 5});
    T* values = reinterpret_cast<T*>(a.bytes.data());
    for (std::int64_t i = 0; i < a.size(); ++i)
        values[i] = static_cast<T>(i);
    for (const T d : divisors)
        if (!divides_by_scalar_like_reference(type, a, d)) return;
}

}  // namespace

TEST(OptimizedScalarDivisor, Int16EveryDividend) {
    expect_scalar_divisors_16<std::int16_t>(ElementType::i16);
}

TEST(OptimizedScalarDivisor, UInt16EveryDividend) {
    expect_scalar_divisors_16<std::uint16_t>(ElementType::u16);
}
