// Exhaustive sweeps: all 65,536 operand pairs of i8 and of u8, for every op version that allows
// them (Divide-1 once per m_pythondiv value). reference::run and oracle::run must both equal the
// values worked out here in plain double arithmetic (exact for 8-bit operands), wrapped to 8 bits,
// with exactly the zero divisors undefined.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "generators/value_generators.hpp"
#include "oracle/run.hpp"
#include "property_tests/output_difference.hpp"
#include "reference/run.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

using core::ElementType;

class Exhaustive8Bit : public ::testing::TestWithParam<Combination> {};

// "onnx_Mul_14_i8", "openvino_Divide_1_u8_floor": the combination without its rule.
std::string sweep_name(const Combination& c) {
    std::string out = std::string(c.op->domain) + "_" + std::string(c.op->name) + "_" +
                      std::to_string(c.op->version) + "_" + std::string(core::name(c.type));
    if (c.pythondiv) out += *c.pythondiv ? "_floor" : "_trunc";
    return out;
}

// One combination per (version, 8-bit type, m_pythondiv): every rule accepts identical shapes.
std::vector<Combination> sweeps() {
    std::map<std::string, Combination> unique;
    for (const Combination& c : all_combinations())
        if (c.type == ElementType::i8 || c.type == ElementType::u8)
            unique.try_emplace(sweep_name(c), c);
    std::vector<Combination> out;
    for (const auto& entry : unique)
        out.push_back(entry.second);
    return out;
}

// All pairs: A[k] = k >> 8, B[k] = k & 255, as 8-bit patterns.
Case all_pairs(const Combination& c) {
    std::vector<std::uint64_t> a(65536), b(65536);
    for (std::size_t k = 0; k < a.size(); ++k) {
        a[k] = k >> 8;
        b[k] = k & 255;
    }
    const core::Shape shape{256, 256};
    return make_case(c, {shape, shape, std::nullopt}, attributes_for(c, std::nullopt, false),
                     tensor_from_bits(c.type, shape, a), tensor_from_bits(c.type, shape, b));
}

// The exact result in double (products of 8-bit values and their quotients' floor / trunc are
// exact), wrapped modulo 256; std::nullopt for an undefined quotient.
std::optional<std::uint64_t> expected_bits(const Combination& c, double x, double y) {
    double v = x * y;
    if (c.is_division()) {
        if (y == 0) return std::nullopt;
        const bool floor = c.expected_rounding() == core::IntegerRounding::floor;
        v = floor ? std::floor(x / y) : std::trunc(x / y);
    }
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & 255;
}

core::OpOutput expected_output(const Case& k) {
    std::vector<std::uint64_t> bits(65536);
    core::OpOutput out;
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const auto x = static_cast<double>(integer_value(k.a, static_cast<std::int64_t>(i)));
        const auto y = static_cast<double>(integer_value(k.b, static_cast<std::int64_t>(i)));
        const auto e = expected_bits(k.combination, x, y);
        if (!e) out.undefined.push_back(static_cast<std::int64_t>(i));
        bits[i] = e.value_or(0);
    }
    out.value = tensor_from_bits(k.combination.type, k.a.shape, bits);
    return out;
}

TEST_P(Exhaustive8Bit, AllPairs) {
    const Case k = all_pairs(GetParam());
    const core::OpOutput expected = expected_output(k);
    const core::OpVersion& op = *k.combination.op;
    const core::OpOutput reference = reference::run(op, k.attributes, k.a, k.b);
    const core::OpOutput oracle = oracle::run(op, k.attributes, k.a, k.b);
    EXPECT_EQ(output_difference(k, {"oracle", oracle}, {"reference", reference}), "")
        << descriptor(k);
    EXPECT_EQ(output_difference(k, {"exact", expected}, {"reference", reference}), "")
        << descriptor(k);
    EXPECT_EQ(output_difference(k, {"exact", expected}, {"oracle", oracle}), "") << descriptor(k);
}

INSTANTIATE_TEST_SUITE_P(op, Exhaustive8Bit, ::testing::ValuesIn(sweeps()),
                         [](const auto& info) { return sweep_name(info.param); });

}  // namespace
}  // namespace property_tests
