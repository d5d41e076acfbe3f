// The expected output of a large case against the oracle, and the check itself: every expected
// value by hand, every corrupted output made from a correct one.
#include "judging/prepared_case.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/op_table.hpp"

namespace {

using core::ElementType;

// Throws nothing, or std::logic_error whose message is returned.
std::string oracle_check_error(const judging::PreparedCase& p, const core::OpOutput& out,
                               std::int64_t samples) {
    try {
        judging::check_against_oracle(p, out, samples);
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

// Div-14 i32 above the reference's limit (1025 x 1024 elements, so the optimized kernels make
// it): A[f] = f, B[j] = j - 512, so column 512 divides by zero.
TEST(PreparedCase, LargeExpectedOutputAgreesWithTheOracle) {
    core::CaseRecord c;
    c.op = core::find_op_version("onnx.Div-14");
    std::vector<std::int32_t> a(1025 * 1024), b(1024);
    for (std::size_t f = 0; f < a.size(); ++f)
        a[f] = static_cast<std::int32_t>(f);
    for (std::size_t j = 0; j < b.size(); ++j)
        b[j] = static_cast<std::int32_t>(j) - 512;
    c.a = core::make_tensor<ElementType::i32>({1025, 1024}, a);
    c.b = core::make_tensor<ElementType::i32>({1024}, b);
    const judging::PreparedCase p = judging::prepare_case(*c.op, c);
    const core::OpOutput e = judging::expected_output(p);
    const auto q = e.value.values<std::int32_t>();
    EXPECT_EQ(q[1], 0);                      // 1 / -511, truncated
    EXPECT_EQ(q[1000 * 1024 + 1000], 2100);  // 1025000 / 488 = 2100.4
    EXPECT_EQ(q[1024 + 1023], 4);            // 2047 / 511 = 4.006
    ASSERT_EQ(e.undefined.size(), 1025u);    // column 512 of every row
    EXPECT_EQ(e.undefined[1], 1024 + 512);
}

TEST(PreparedCase, OracleCheckNamesTheFirstElementThatDiffers) {
    core::CaseRecord c;
    c.op = core::find_op_version("onnx.Div-14");
    std::vector<float> a(1000), b(1000, 4.0f);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i);
    b[10] = 0.0f;  // 10 / 0 = inf
    c.a = core::make_tensor<ElementType::f32>({1000}, a);
    c.b = core::make_tensor<ElementType::f32>({1000}, b);
    const judging::PreparedCase p = judging::prepare_case(*c.op, c);
    const core::OpOutput right = judging::expected_output(p);
    EXPECT_EQ(oracle_check_error(p, right, 16), "");
    EXPECT_EQ(oracle_check_error(p, right, 5000), "");  // more samples than elements: all

    core::OpOutput wrong = right;
    wrong.value.values<float>()[999] = 250.0f;  // 999 / 4 = 249.75: the last element is sampled
    EXPECT_NE(oracle_check_error(p, wrong, 16).find("at element 999,"), std::string::npos);
    wrong = right;
    wrong.value.values<float>()[0] = -0.0f;  // 0 / 4 = +0: the first, and a sign is a difference
    EXPECT_NE(oracle_check_error(p, wrong, 16).find("at element 0,"), std::string::npos);
    wrong = right;
    wrong.undefined = {0};  // a float element is never undefined
    EXPECT_NE(oracle_check_error(p, wrong, 16).find("undefined at element 0,"), std::string::npos);
}

}  // namespace
