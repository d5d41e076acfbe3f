// Broadcasting: output shapes and errors for every example of docs/SEMANTICS.md section 3 and
// of OpenVINO's broadcast-rules doc, plus plan strides worked out by hand.
#include "core/broadcast.hpp"

#include <gtest/gtest.h>

#include <limits>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace core {
namespace {

using Strides = std::vector<std::int64_t>;

const BroadcastSpec kNone{BroadcastRule::none, std::nullopt};
const BroadcastSpec kNumpy{BroadcastRule::numpy, std::nullopt};

BroadcastSpec pdpd(std::int64_t axis) {
    return {BroadcastRule::pdpd, axis};
}
BroadcastSpec legacy(std::optional<std::int64_t> axis = std::nullopt) {
    return {BroadcastRule::onnx_legacy, axis};
}

struct Valid {
    Shape a, b, out;
};
struct Invalid {
    Shape a, b;
};

std::string describe(const Shape& a, const Shape& b, const BroadcastSpec& spec) {
    return to_string(a) + " with " + to_string(b) + " under " + to_string(spec);
}

void expect_valid(const Valid& c, const BroadcastSpec& spec) {
    SCOPED_TRACE(describe(c.a, c.b, spec));
    EXPECT_EQ(broadcast_shape(c.a, c.b, spec), c.out);
    const BroadcastPlan plan = make_plan(c.a, c.b, spec);
    EXPECT_EQ(plan.output, c.out);
    EXPECT_EQ(plan.a_strides.size(), c.out.size());
    EXPECT_EQ(plan.b_strides.size(), c.out.size());
}

// The error must be a shape error naming both shapes (as to_string prints them) and the rule.
void expect_invalid(const Invalid& c, const BroadcastSpec& spec, const std::string& rule_word) {
    SCOPED_TRACE(describe(c.a, c.b, spec));
    try {
        make_plan(c.a, c.b, spec);
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        const std::string message = e.what();
        EXPECT_EQ(e.kind(), ErrorKind::shape);
        EXPECT_NE(message.find(to_string(c.a)), std::string::npos) << message;
        EXPECT_NE(message.find(to_string(c.b)), std::string::npos) << message;
        EXPECT_NE(message.find(rule_word), std::string::npos) << message;
    }
    EXPECT_THROW(broadcast_shape(c.a, c.b, spec), Error);
}

// ---- numpy ----

// OpenVINO broadcast-rules doc, numpy examples, and the seed example (8,1,6,1)x(7,1,5).
const std::vector<Valid> kNumpyValid = {
    {{}, {}, {}},
    {{2, 3}, {1}, {2, 3}},
    {{3}, {2, 3}, {2, 3}},
    {{2, 3, 5}, {}, {2, 3, 5}},
    {{2, 1, 5}, {1, 4, 5}, {2, 4, 5}},
    {{6, 5}, {2, 1, 5}, {2, 6, 5}},
    {{2, 1, 5}, {4, 1}, {2, 4, 5}},
    {{3, 2, 1, 4}, {5, 4}, {3, 2, 5, 4}},
    {{1, 5, 3}, {5, 2, 1, 3}, {5, 2, 5, 3}},
    {{8, 1, 6, 1}, {7, 1, 5}, {8, 7, 6, 5}},
    {{256, 56}, {256, 56}, {256, 56}},
};

TEST(Broadcast, NumpyDocExamples) {
    for (const auto& c : kNumpyValid) {
        expect_valid(c, kNumpy);
        expect_valid({c.b, c.a, c.out}, kNumpy);  // multidirectional: either side may stretch
    }
}

TEST(Broadcast, NumpyDocFailures) {
    expect_invalid({{3}, {2}}, kNumpy, "numpy");
    expect_invalid({{3, 1, 5}, {4, 4, 5}}, kNumpy, "numpy");
    expect_invalid({{2}, {3}}, kNumpy, "numpy");
    expect_invalid({{2, 3}, {3, 2}}, kNumpy, "numpy");
}

// A 0-sized dim broadcasts like any other dim: against 1 it stays 0, against n > 1 it fails.
TEST(Broadcast, NumpyZeroSizedDims) {
    const std::vector<Valid> cases = {
        {{0}, {1}, {0}},          {{0}, {0}, {0}},          {{2, 0}, {1}, {2, 0}},
        {{0, 3}, {1, 3}, {0, 3}}, {{1, 0}, {3, 1}, {3, 0}}, {{0}, {}, {0}},
        {{2, 0}, {2, 1}, {2, 0}},
    };
    for (const auto& c : cases) {
        expect_valid(c, kNumpy);
        expect_valid({c.b, c.a, c.out}, kNumpy);
    }
    expect_invalid({{0}, {2}}, kNumpy, "numpy");
    expect_invalid({{2, 0}, {2, 3}}, kNumpy, "numpy");
    // Dims whose product exceeds 64 bits are fine next to a zero dim: nothing is ever read.
    const std::int64_t huge = std::int64_t{1} << 40;
    EXPECT_EQ(make_plan({0, huge, huge}, {huge}, kNumpy).output, (Shape{0, huge, huge}));
}

// Strides by hand: row-major strides of each input's own shape, 0 on stretched dims.
TEST(Broadcast, NumpyPlanStrides) {
    // A (8,1,6,1) has strides (6,6,1,1) -> 0 on its size-1 dims; B (7,1,5) aligned to (1,7,1,5).
    const BroadcastPlan p = make_plan({8, 1, 6, 1}, {7, 1, 5}, kNumpy);
    EXPECT_EQ(p.output, (Shape{8, 7, 6, 5}));
    EXPECT_EQ(p.a_strides, (Strides{6, 0, 1, 0}));
    EXPECT_EQ(p.b_strides, (Strides{0, 5, 0, 1}));

    const BroadcastPlan q = make_plan({2, 3}, {3}, kNumpy);
    EXPECT_EQ(q.a_strides, (Strides{3, 1}));
    EXPECT_EQ(q.b_strides, (Strides{0, 1}));

    const BroadcastPlan r = make_plan({2, 1, 5}, {4, 1}, kNumpy);
    EXPECT_EQ(r.output, (Shape{2, 4, 5}));
    EXPECT_EQ(r.a_strides, (Strides{5, 0, 1}));
    EXPECT_EQ(r.b_strides, (Strides{0, 1, 0}));

    const BroadcastPlan s = make_plan({}, {}, kNumpy);
    EXPECT_TRUE(s.output.empty());
    EXPECT_TRUE(s.a_strides.empty());
    EXPECT_TRUE(s.b_strides.empty());
}

// ---- none ----

TEST(Broadcast, NoneRequiresIdenticalShapes) {
    expect_valid({{256, 56}, {256, 56}, {256, 56}}, kNone);
    expect_valid({{}, {}, {}}, kNone);
    expect_valid({{2, 0}, {2, 0}, {2, 0}}, kNone);
    expect_invalid({{2, 3}, {1, 3}}, kNone, "none");
    expect_invalid({{3}, {1, 3}}, kNone, "none");
    expect_invalid({{2, 3}, {3, 2}}, kNone, "none");
    expect_invalid({{}, {1}}, kNone, "none");
}

TEST(Broadcast, NonePlanStrides) {
    const BroadcastPlan p = make_plan({2, 3, 4}, {2, 3, 4}, kNone);
    EXPECT_EQ(p.a_strides, (Strides{12, 4, 1}));
    EXPECT_EQ(p.b_strides, (Strides{12, 4, 1}));
}

// ---- pdpd ----

const Shape kA{2, 3, 4, 5};

// OpenVINO broadcast-rules doc, pdpd examples with A = (2,3,4,5); the output is always A.
TEST(Broadcast, PdpdDocExamples) {
    expect_valid({kA, {3, 4}, kA}, pdpd(1));
    expect_valid({kA, {3, 1}, kA}, pdpd(1));
    expect_valid({kA, {4, 5}, kA}, pdpd(-1));
    expect_valid({kA, {4, 5}, kA}, pdpd(2));
    expect_valid({kA, {1, 3}, kA}, pdpd(0));
    expect_valid({kA, {}, kA}, pdpd(-1));
    expect_valid({kA, {5}, kA}, pdpd(-1));
    expect_valid({kA, {5}, kA}, pdpd(3));
    expect_invalid({{8, 1, 6, 1}, {7, 1, 5}}, pdpd(1), "pdpd");
}

TEST(Broadcast, PdpdOnlyBroadcastsBToA) {
    expect_invalid({{2, 1}, {3}}, pdpd(-1), "pdpd");  // A's 1 does not stretch
    expect_invalid({{3}, {2, 3}}, pdpd(-1), "pdpd");  // rank(B) > rank(A)
    expect_invalid({kA, {3, 4}}, pdpd(2), "pdpd");    // (3,4) against (4,5)
    expect_invalid({kA, {4, 5}}, pdpd(3), "pdpd");    // does not fit
    expect_invalid({kA, {5}}, pdpd(4), "pdpd");       // does not fit
    expect_invalid({kA, {4, 5}}, pdpd(-2), "pdpd");   // only -1 may be negative
    expect_invalid({kA, {}}, pdpd(-3), "pdpd");
}

// OpenVINO derives the default axis from B's rank before dropping B's trailing 1s:
// B=(4,5,1) with axis=-1 gives axis 1, so (4,5) is matched against (3,4) and fails.
TEST(Broadcast, PdpdDefaultAxisUsesRankBeforeTrimming) {
    expect_invalid({kA, {4, 5, 1}}, pdpd(-1), "pdpd");
    expect_valid({kA, {4, 5, 1}, kA}, pdpd(2));
    expect_valid({kA, {3, 1, 1}, kA}, pdpd(-1));  // axis 1, trimmed to (3)
    expect_valid({kA, {1, 1}, kA}, pdpd(-1));     // trims to a scalar
}

// An axis near INT64_MAX is simply too large: the fit check must not overflow (UBSan).
TEST(Broadcast, HugeAxisIsRejectedWithoutOverflow) {
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    expect_invalid({kA, {3, 4}}, pdpd(huge), "pdpd");
    expect_invalid({kA, {3, 4}}, legacy(huge), "onnx legacy");
    expect_invalid({kA, {3, 4}}, legacy(huge - 1), "onnx legacy");
}

TEST(Broadcast, PdpdPlanStrides) {
    // B=(3,1) at axis 1 is laid out as (1,3,1,1).
    const BroadcastPlan p = make_plan(kA, {3, 1}, pdpd(1));
    EXPECT_EQ(p.output, kA);
    EXPECT_EQ(p.a_strides, (Strides{60, 20, 5, 1}));
    EXPECT_EQ(p.b_strides, (Strides{0, 1, 0, 0}));
    // B=(1,3) at axis 0 is laid out as (1,3,1,1) too: its leading 1 stretches over A's 2.
    const BroadcastPlan q = make_plan(kA, {1, 3}, pdpd(0));
    EXPECT_EQ(q.b_strides, (Strides{0, 1, 0, 0}));
    // B=(4,5) by default at axis 2: (1,1,4,5).
    const BroadcastPlan r = make_plan(kA, {4, 5}, pdpd(-1));
    EXPECT_EQ(r.b_strides, (Strides{0, 0, 5, 1}));
}

// ---- ONNX legacy (broadcast=1) ----

// The spec's examples with A = (2,3,4,5).
TEST(Broadcast, OnnxLegacySpecExamples) {
    expect_valid({kA, {}, kA}, legacy());
    expect_valid({kA, {1, 1}, kA}, legacy());
    expect_valid({kA, {5}, kA}, legacy());
    expect_valid({kA, {4, 5}, kA}, legacy());
    expect_valid({kA, {3, 4}, kA}, legacy(1));
    expect_valid({kA, {2}, kA}, legacy(0));
    expect_valid({kA, kA, kA}, legacy());
    expect_valid({kA, kA, kA}, legacy(0));
}

TEST(Broadcast, OnnxLegacyFailures) {
    expect_invalid({kA, {3, 1}}, legacy(1), "onnx legacy");  // no 1-dim expansion
    expect_invalid({kA, {1, 5}}, legacy(), "onnx legacy");   // no 1-dim expansion
    expect_invalid({kA, {3, 4}}, legacy(), "onnx legacy");   // suffix is (4,5)
    expect_invalid({kA, {3}}, legacy(), "onnx legacy");      // suffix is (5)
    expect_invalid({kA, {4, 5}}, legacy(1), "onnx legacy");  // (3,4) at axis 1
    expect_invalid({kA, {4, 5}}, legacy(3), "onnx legacy");  // does not fit
    expect_invalid({kA, {2}}, legacy(4), "onnx legacy");     // does not fit
    expect_invalid({kA, {5}}, legacy(-1), "onnx legacy");    // negative axis
    expect_invalid({{4, 5}, kA}, legacy(), "onnx legacy");   // rank(B) > rank(A)
    expect_invalid({{}, {1}}, legacy(), "onnx legacy");      // rank(B) > rank(A)
}

TEST(Broadcast, OnnxLegacyPlanStrides) {
    const BroadcastPlan p = make_plan(kA, {3, 4}, legacy(1));
    EXPECT_EQ(p.output, kA);
    EXPECT_EQ(p.a_strides, (Strides{60, 20, 5, 1}));
    EXPECT_EQ(p.b_strides, (Strides{0, 4, 1, 0}));
    EXPECT_EQ(make_plan(kA, {}, legacy()).b_strides, (Strides{0, 0, 0, 0}));
    EXPECT_EQ(make_plan(kA, {1, 1}, legacy()).b_strides, (Strides{0, 0, 0, 0}));
    EXPECT_EQ(make_plan(kA, {2}, legacy(0)).b_strides, (Strides{1, 0, 0, 0}));
    EXPECT_EQ(make_plan(kA, {5}, legacy()).b_strides, (Strides{0, 0, 0, 1}));
}

// ---- shared ----

TEST(Broadcast, InvalidShapesAreShapeErrorsUnderEveryRule) {
    for (const BroadcastSpec& spec : {kNone, kNumpy, pdpd(-1), legacy()}) {
        SCOPED_TRACE(to_string(spec));
        for (const auto& [a, b] : std::vector<Invalid>{{{2, -1}, {2, -1}}, {{3}, {-3}}}) {
            try {
                make_plan(a, b, spec);
                ADD_FAILURE() << "accepted " << to_string(a) << " " << to_string(b);
            } catch (const Error& e) {
                EXPECT_EQ(e.kind(), ErrorKind::shape);
            }
        }
    }
}

TEST(Broadcast, SpecToStringNamesTheRule) {
    EXPECT_EQ(to_string(kNone), "none");
    EXPECT_EQ(to_string(kNumpy), "numpy");
    EXPECT_NE(to_string(pdpd(2)).find("pdpd"), std::string::npos);
    EXPECT_NE(to_string(pdpd(2)).find('2'), std::string::npos);
    EXPECT_NE(to_string(legacy(1)).find("onnx legacy"), std::string::npos);
}

// Profiles, spec tables and case ids spell the rules so; every rule is listed once.
TEST(Broadcast, RuleNamesReadBackAndAreListed) {
    EXPECT_EQ(name(BroadcastRule::none), "none");
    EXPECT_EQ(name(BroadcastRule::numpy), "numpy");
    EXPECT_EQ(name(BroadcastRule::pdpd), "pdpd");
    EXPECT_EQ(name(BroadcastRule::onnx_legacy), "onnx_legacy");
    for (BroadcastRule r : kBroadcastRules)
        EXPECT_EQ(broadcast_rule_named(name(r)), r);
    EXPECT_EQ(broadcast_rule_named("legacy"), std::nullopt);
    EXPECT_EQ(broadcast_rule_names(), "none, numpy, pdpd, onnx_legacy");
    EXPECT_EQ(BroadcastSpec{}.rule, BroadcastRule::numpy);  // ONNX-7+, auto_broadcast's default
}

// docs/SEMANTICS.md section 3: numpy stretches 1s on either side, pdpd in B; none wants equal
// shapes and legacy "1-dim expansion doesn't work yet". Only pdpd and legacy read an axis.
TEST(Broadcast, RulePropertiesFollowTheSpec) {
    EXPECT_FALSE(stretches_size_one_dims(BroadcastRule::none));
    EXPECT_TRUE(stretches_size_one_dims(BroadcastRule::numpy));
    EXPECT_TRUE(stretches_size_one_dims(BroadcastRule::pdpd));
    EXPECT_FALSE(stretches_size_one_dims(BroadcastRule::onnx_legacy));
    EXPECT_FALSE(takes_axis(BroadcastRule::none));
    EXPECT_FALSE(takes_axis(BroadcastRule::numpy));
    EXPECT_TRUE(takes_axis(BroadcastRule::pdpd));
    EXPECT_TRUE(takes_axis(BroadcastRule::onnx_legacy));
}

TEST(Broadcast, BroadcastsSaysWhetherTheShapesFit) {
    EXPECT_TRUE(broadcasts({2, 3}, {3}, kNumpy));
    EXPECT_FALSE(broadcasts({2, 3}, {2}, kNumpy));
    EXPECT_FALSE(broadcasts({2, 3}, {3}, kNone));
    EXPECT_TRUE(broadcasts({2, 3}, {2}, pdpd(0)));
    EXPECT_FALSE(broadcasts({2, 3}, {1, 3}, legacy()));  // no 1-dim expansion
    EXPECT_FALSE(broadcasts({-1}, {1}, kNumpy));         // a bad dim is a shape error too
}

}  // namespace
}  // namespace core
