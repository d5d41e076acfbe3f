// The oracle's broadcasting against the examples of docs/SEMANTICS.md section 3, and
// oracle::run end to end on the spec's value examples (section 5).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "oracle/element_mapping.hpp"
#include "oracle/run.hpp"

namespace {

using core::BroadcastRule;
using core::BroadcastSpec;
using core::Shape;

Shape out(const Shape& a, const Shape& b, BroadcastSpec spec) {
    return oracle::output_shape(a, b, spec);
}

bool rejected(const Shape& a, const Shape& b, BroadcastSpec spec) {
    try {
        oracle::output_shape(a, b, spec);
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::shape);
        return true;
    }
    return false;
}

const BroadcastSpec kNone{BroadcastRule::none, std::nullopt};
const BroadcastSpec kNumpy{BroadcastRule::numpy, std::nullopt};
BroadcastSpec pdpd(std::int64_t axis) {
    return {BroadcastRule::pdpd, axis};
}
BroadcastSpec legacy(std::optional<std::int64_t> axis) {
    return {BroadcastRule::onnx_legacy, axis};
}

TEST(ElementMapping, NoneAndNumpyExamples) {
    EXPECT_EQ(out({256, 56}, {256, 56}, kNone), (Shape{256, 56}));
    EXPECT_TRUE(rejected({2, 3}, {3, 2}, kNone));
    EXPECT_TRUE(rejected({3}, {1, 3}, kNone));
    EXPECT_EQ(out({2, 1, 5}, {1, 4, 5}, kNumpy), (Shape{2, 4, 5}));
    EXPECT_EQ(out({6, 5}, {2, 1, 5}, kNumpy), (Shape{2, 6, 5}));
    EXPECT_EQ(out({1, 5, 3}, {5, 2, 1, 3}, kNumpy), (Shape{5, 2, 5, 3}));
    EXPECT_EQ(out({8, 1, 6, 1}, {7, 1, 5}, kNumpy), (Shape{8, 7, 6, 5}));
    EXPECT_EQ(out({}, {}, kNumpy), Shape{});
    EXPECT_EQ(out({0}, {1}, kNumpy), Shape{0});
    EXPECT_TRUE(rejected({3}, {2}, kNumpy));
    EXPECT_TRUE(rejected({3, 1, 5}, {4, 4, 5}, kNumpy));
    EXPECT_TRUE(rejected({0}, {3}, kNumpy));
    EXPECT_TRUE(rejected({-1}, {1}, kNumpy));
}

TEST(ElementMapping, PdpdExamples) {
    const Shape a{2, 3, 4, 5};
    EXPECT_EQ(out(a, {3, 4}, pdpd(1)), a);
    EXPECT_EQ(out(a, {3, 1}, pdpd(1)), a);
    EXPECT_EQ(out(a, {4, 5}, pdpd(-1)), a);
    EXPECT_EQ(out(a, {4, 5}, pdpd(2)), a);
    EXPECT_EQ(out(a, {1, 3}, pdpd(0)), a);
    EXPECT_EQ(out(a, {}, pdpd(-1)), a);
    EXPECT_EQ(out(a, {5}, pdpd(-1)), a);
    EXPECT_EQ(out(a, {5}, pdpd(3)), a);
    EXPECT_TRUE(rejected({8, 1, 6, 1}, {7, 1, 5}, pdpd(1)));  // only B broadcasts
    EXPECT_TRUE(rejected(a, {3, 4}, pdpd(-2)));               // axis < -1
    EXPECT_TRUE(rejected(a, {3, 4}, pdpd(3)));                // does not fit
    EXPECT_TRUE(rejected(a, {1, 2, 3, 4, 5}, pdpd(-1)));      // rank(B) > rank(A)
    // axis -1 uses B's rank as given (OpenVINO partial_shape.cpp): B=(4,1) -> axis 2, kept (4)
    // at 2 fits; B=(5,1) -> axis 2, kept (5) against A's 4 is rejected.
    EXPECT_EQ(out(a, {4, 1}, pdpd(-1)), a);
    EXPECT_TRUE(rejected(a, {5, 1}, pdpd(-1)));
}

TEST(ElementMapping, OnnxLegacyExamples) {
    const Shape a{2, 3, 4, 5};
    EXPECT_EQ(out(a, {}, legacy(std::nullopt)), a);
    EXPECT_EQ(out(a, {1, 1}, legacy(std::nullopt)), a);
    EXPECT_EQ(out(a, {5}, legacy(std::nullopt)), a);
    EXPECT_EQ(out(a, {4, 5}, legacy(std::nullopt)), a);
    EXPECT_EQ(out(a, {3, 4}, legacy(1)), a);
    EXPECT_EQ(out(a, {2}, legacy(0)), a);
    EXPECT_TRUE(rejected(a, {3, 1}, legacy(1)));          // no size-1 stretching
    EXPECT_TRUE(rejected(a, {4}, legacy(std::nullopt)));  // suffix is (5)
    EXPECT_TRUE(rejected(a, {4, 5}, legacy(3)));          // axis does not fit
    EXPECT_TRUE(rejected(a, {3}, legacy(-1)));            // negative axis
    EXPECT_TRUE(rejected({3}, {1, 3}, legacy(std::nullopt)));
}

TEST(ElementMapping, FlatIndices) {
    // numpy (2,1) x (1,3): out[i][j] = A[i] op B[j].
    auto m = oracle::map_elements({2, 1}, {1, 3}, kNumpy);
    EXPECT_EQ(m.output, (Shape{2, 3}));
    EXPECT_EQ(m.a_index, (std::vector<std::int64_t>{0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(m.b_index, (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2}));
    // onnx legacy A=(2,3), B=(2) at axis 0: B runs along the first dim.
    m = oracle::map_elements({2, 3}, {2}, legacy(0));
    EXPECT_EQ(m.b_index, (std::vector<std::int64_t>{0, 0, 0, 1, 1, 1}));
    // pdpd A=(2,3), B=(3,1) at axis 1: the trailing 1 is dropped, B runs along the last dim.
    m = oracle::map_elements({2, 3}, {3, 1}, pdpd(1));
    EXPECT_EQ(m.a_index, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(m.b_index, (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2}));
}

TEST(OracleRun, SpecValueExamples) {
    // ONNX Mul: [1,2,3] * [4,5,6] = [4,10,18].
    const auto* mul = core::find_op_version("onnx.Mul-7");
    ASSERT_NE(mul, nullptr);
    auto r = oracle::run(*mul, {}, core::make_tensor<core::ElementType::f32>({3}, {1, 2, 3}),
                         core::make_tensor<core::ElementType::f32>({3}, {4, 5, 6}));
    const auto v = r.value.values<float>();
    EXPECT_EQ(std::vector<float>(v.begin(), v.end()), (std::vector<float>{4, 10, 18}));
    // OpenVINO Divide-1 i32 with m_pythondiv true (the default): floor; a zero divisor is
    // undefined, listed ascending with value 0.
    const auto* div = core::find_op_version("openvino.Divide-1");
    ASSERT_NE(div, nullptr);
    const auto a = core::make_tensor<core::ElementType::i32>({6}, {-10, -10, 10, 10, 1, 2});
    const auto b = core::make_tensor<core::ElementType::i32>({6}, {-3, 3, -3, 3, 0, 0});
    r = oracle::run(*div, {}, a, b);
    const auto q = r.value.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(q.begin(), q.end()),
              (std::vector<std::int32_t>{3, -4, -4, 3, 0, 0}));
    EXPECT_EQ(r.undefined, (std::vector<std::int64_t>{4, 5}));
    r = oracle::run(*div, {{"m_pythondiv", "false"}}, a, b);
    const auto t = r.value.values<std::int32_t>();
    EXPECT_EQ(std::vector<std::int32_t>(t.begin(), t.end()),
              (std::vector<std::int32_t>{3, -3, -3, 3, 0, 0}));
}

TEST(OracleRun, RejectsWhatTheSpecRejects) {
    const auto* mul = core::find_op_version("onnx.Mul-13");
    ASSERT_NE(mul, nullptr);
    const auto i8 = core::make_tensor<core::ElementType::i8>({1}, {1});
    EXPECT_THROW(oracle::run(*mul, {}, i8, i8), core::Error);  // i8 not in Mul-13
    const auto x = core::make_tensor<core::ElementType::f32>({3}, {1, 2, 3});
    const auto y = core::make_tensor<core::ElementType::f32>({2}, {1, 2});
    try {
        oracle::run(*mul, {}, x, y);
        ADD_FAILURE() << "(3) x (2) accepted";
    } catch (const core::Error& e) {
        EXPECT_EQ(e.kind(), core::ErrorKind::shape);
    }
}

// map_elements_at gives, for any indices in any order, the entries the whole mapping has there.
TEST(ElementMapping, AtIndicesGivesTheWholeMappingsEntries) {
    struct Pair {
        Shape a, b;
        BroadcastSpec spec;
    };
    const std::vector<Pair> pairs{{{8, 1, 6, 1}, {7, 1, 5}, kNumpy},
                                  {{2, 3, 4, 5}, {3, 4}, pdpd(1)},
                                  {{2, 3, 4, 5}, {4, 5}, legacy(std::nullopt)},
                                  {{2, 3, 4, 5}, {3}, legacy(1)},
                                  {{2, 3}, {2, 3}, kNone}};
    for (const Pair& p : pairs) {
        const oracle::ElementMapping whole = oracle::map_elements(p.a, p.b, p.spec);
        const auto n = static_cast<std::int64_t>(whole.a_index.size());
        std::vector<std::int64_t> reversed;
        for (std::int64_t i = n; i-- > 0;)
            reversed.push_back(i);
        const oracle::ElementMapping at = oracle::map_elements_at(p.a, p.b, p.spec, reversed);
        EXPECT_EQ(at.output, whole.output);
        ASSERT_EQ(at.a_index.size(), reversed.size());
        for (std::size_t k = 0; k < reversed.size(); ++k) {
            const auto i = static_cast<std::size_t>(reversed[k]);
            EXPECT_EQ(at.a_index[k], whole.a_index[i]) << "output index " << i;
            EXPECT_EQ(at.b_index[k], whole.b_index[i]) << "output index " << i;
        }
        EXPECT_THROW(oracle::map_elements_at(p.a, p.b, p.spec, {n}), std::out_of_range);
        EXPECT_THROW(oracle::map_elements_at(p.a, p.b, p.spec, {-1}), std::out_of_range);
    }
}

TEST(OracleRun, RunAtGivesTheElementsRunGives) {
    // Divide-1 i32, floor, B broadcast as a column (numpy): (2,3) / (2,1), one zero divisor.
    const auto* div = core::find_op_version("openvino.Divide-1");
    ASSERT_NE(div, nullptr);
    const auto a = core::make_tensor<core::ElementType::i32>({2, 3}, {-7, 7, 9, 5, 6, -1});
    const auto b = core::make_tensor<core::ElementType::i32>({2, 1}, {2, 0});
    const std::vector<oracle::Element> at = oracle::run_at(*div, {}, a, b, {5, 0, 2, 3});
    ASSERT_EQ(at.size(), 4u);
    EXPECT_TRUE(at[0].undefined);                          // -1 / 0
    EXPECT_EQ(static_cast<std::int32_t>(at[1].bits), -4);  // floor(-7 / 2)
    EXPECT_FALSE(at[1].undefined);
    EXPECT_EQ(static_cast<std::int32_t>(at[2].bits), 4);  // floor(9 / 2)
    EXPECT_TRUE(at[3].undefined);                         // 5 / 0
    EXPECT_THROW(oracle::run_at(*div, {}, a, b, {6}), std::out_of_range);
}

}  // namespace
