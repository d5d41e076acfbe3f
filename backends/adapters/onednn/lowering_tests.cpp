// The converter's part of the oneDNN adapter. Expected shapes are the spec examples of
// SEMANTICS.md section 3, lowered by hand to oneDNN's rule (src1 broadcast over size-1 dims).
#include "backends/adapters/onednn/lowering.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace backends::adapters::onednn {
namespace {

using Given = std::vector<std::pair<std::string, std::string>>;

const OpVersion& op(std::string_view id) {
    const OpVersion* found = find_op(id);
    EXPECT_NE(found, nullptr) << id;
    return *found;
}

Attributes numpy() {
    return {Rule::numpy, std::nullopt, false};
}
Attributes none() {
    return {Rule::none, std::nullopt, false};
}
Attributes pdpd(std::int64_t axis) {
    return {Rule::pdpd, axis, false};
}
Attributes legacy(std::optional<std::int64_t> axis) {
    return {Rule::onnx_legacy, axis, false};
}

// For the rules where B goes into A: dst = src0, output = A.
void expect_lowered(const Attributes& rule, const Dims& a, const Dims& b, const Dims& src0,
                    const Dims& src1, const Dims& output) {
    const Lowered l = lower(rule, a, b);
    EXPECT_EQ(l.src0, src0) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.src1, src1) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.dst, src0) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.output, output) << to_string(a) << " " << to_string(b);
}

void expect_numpy(const Dims& a, const Dims& b, const Dims& src0, const Dims& src1, const Dims& dst,
                  const Dims& output) {
    const Lowered l = lower(numpy(), a, b);
    EXPECT_EQ(l.src0, src0) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.src1, src1) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.dst, dst) << to_string(a) << " " << to_string(b);
    EXPECT_EQ(l.output, output) << to_string(a) << " " << to_string(b);
}

TEST(OnednnLowering, NumpyPrependsOnesAndBroadcastsEither) {
    expect_numpy({2, 4, 5}, {1, 4, 5}, {2, 4, 5}, {1, 4, 5}, {2, 4, 5}, {2, 4, 5});
    expect_numpy({6, 5}, {5}, {6, 5}, {1, 5}, {6, 5}, {6, 5});
    expect_numpy({2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3});
    expect_numpy({0, 3}, {1, 3}, {0, 3}, {1, 3}, {0, 3}, {0, 3});
    expect_numpy({2, 1, 5}, {1, 4, 5}, {2, 1, 5}, {1, 4, 5}, {2, 4, 5}, {2, 4, 5});
    expect_numpy({6, 5}, {2, 1, 5}, {1, 6, 5}, {2, 1, 5}, {2, 6, 5}, {2, 6, 5});
    expect_numpy({1, 5, 3}, {5, 2, 1, 3}, {1, 1, 5, 3}, {5, 2, 1, 3}, {5, 2, 5, 3}, {5, 2, 5, 3});
    expect_numpy({8, 1, 6, 1}, {7, 1, 5}, {8, 1, 6, 1}, {1, 7, 1, 5}, {8, 7, 6, 5}, {8, 7, 6, 5});
    expect_numpy({1, 3}, {0, 3}, {1, 3}, {0, 3}, {0, 3}, {0, 3});
}

TEST(OnednnLowering, RankZeroBecomesOneElementOfRankOne) {
    expect_numpy({}, {}, {1}, {1}, {1}, {});
    expect_numpy({}, {4}, {1}, {4}, {4}, {4});
    expect_lowered(none(), {}, {}, {1}, {1}, {});
    expect_lowered(pdpd(-1), {}, {}, {1}, {1}, {});
    expect_lowered(legacy(std::nullopt), {}, {}, {1}, {1}, {});
}

TEST(OnednnLowering, NumpyLeavesIncompatibleDimsToOnednn) {
    // dst takes A's dim where neither is 1, a shape oneDNN refuses.
    expect_numpy({3}, {2}, {3}, {2}, {3}, {3});
    expect_numpy({3, 1, 5}, {4, 4, 5}, {3, 1, 5}, {4, 4, 5}, {3, 4, 5}, {3, 4, 5});
}

TEST(OnednnLowering, NoneNeedsEqualShapes) {
    expect_lowered(none(), {256, 56}, {256, 56}, {256, 56}, {256, 56}, {256, 56});
    EXPECT_THROW(lower(none(), {2, 3}, {1, 3}), Rejected);
    EXPECT_THROW(lower(none(), {3}, {1, 3}), Rejected);
}

TEST(OnednnLowering, PdpdPlacesBAtAxis) {
    const Dims a = {2, 3, 4, 5};
    expect_lowered(pdpd(1), a, {3, 4}, a, {1, 3, 4, 1}, a);
    expect_lowered(pdpd(1), a, {3, 1}, a, {1, 3, 1, 1}, a);
    expect_lowered(pdpd(-1), a, {4, 5}, a, {1, 1, 4, 5}, a);
    expect_lowered(pdpd(2), a, {4, 5}, a, {1, 1, 4, 5}, a);
    expect_lowered(pdpd(0), a, {1, 3}, a, {1, 3, 1, 1}, a);
    expect_lowered(pdpd(-1), a, {}, a, {1, 1, 1, 1}, a);
    expect_lowered(pdpd(3), a, {5}, a, {1, 1, 1, 5}, a);
    // The default axis counts B's trailing 1: (4,5) lands at axis 1, where oneDNN rejects it.
    expect_lowered(pdpd(-1), a, {4, 5, 1}, a, {1, 4, 5, 1}, a);
    expect_lowered(pdpd(2), a, {4, 5, 1}, a, {1, 1, 4, 5}, a);
}

TEST(OnednnLowering, PdpdRejectsWhatDoesNotFit) {
    EXPECT_THROW(lower(pdpd(-1), {2, 3}, {1, 2, 3}), Rejected);
    EXPECT_THROW(lower(pdpd(2), {2, 3}, {3}), Rejected);
    EXPECT_THROW(lower(pdpd(INT64_MAX), {2, 3}, {3}), Rejected);  // and no overflow (UBSan)
}

TEST(OnednnLowering, OnnxLegacyExamples) {
    const Dims a = {2, 3, 4, 5};
    expect_lowered(legacy(std::nullopt), a, {}, a, {1, 1, 1, 1}, a);
    expect_lowered(legacy(std::nullopt), a, {1, 1}, a, {1, 1, 1, 1}, a);
    expect_lowered(legacy(std::nullopt), a, {5}, a, {1, 1, 1, 5}, a);
    expect_lowered(legacy(std::nullopt), a, {4, 5}, a, {1, 1, 4, 5}, a);
    expect_lowered(legacy(1), a, {3, 4}, a, {1, 3, 4, 1}, a);
    expect_lowered(legacy(0), a, {2}, a, {2, 1, 1, 1}, a);
}

TEST(OnednnLowering, OnnxLegacyRejectsStretchAndMisfit) {
    const Dims a = {2, 3, 4, 5};
    EXPECT_THROW(lower(legacy(1), a, {3, 1}), Rejected);  // 1-dim expansion doesn't work
    EXPECT_THROW(lower(legacy(std::nullopt), a, {3, 4}), Rejected);
    EXPECT_THROW(lower(legacy(3), a, {4, 5}), Rejected);
    EXPECT_THROW(lower(legacy(std::nullopt), {5}, {1, 5}), Rejected);
    EXPECT_THROW(lower(legacy(INT64_MAX), a, {5}), Rejected);
}

TEST(OnednnAttributes, OnnxLegacy) {
    const Attributes defaults = parse_attributes(op("onnx.Mul-6"), {});
    EXPECT_EQ(defaults.rule, Rule::none);
    const Attributes b1 = parse_attributes(op("onnx.Div-1"), {{"broadcast", "1"}, {"axis", "2"}});
    EXPECT_EQ(b1.rule, Rule::onnx_legacy);
    EXPECT_EQ(b1.axis, 2);
    EXPECT_NO_THROW(parse_attributes(op("onnx.Mul-1"), {{"consumed_inputs", "0,1"}}));
    EXPECT_THROW(parse_attributes(op("onnx.Mul-6"), {{"consumed_inputs", "0"}}), Rejected);
    EXPECT_THROW(parse_attributes(op("onnx.Mul-1"), {{"consumed_inputs", "x"}}), Rejected);
    EXPECT_THROW(parse_attributes(op("onnx.Mul-1"), {{"broadcast", "2"}}), Rejected);
    EXPECT_THROW(parse_attributes(op("onnx.Mul-1"), {{"axis", "-1"}}), Rejected);
}

TEST(OnednnAttributes, OnnxNumpyTakesNone) {
    EXPECT_EQ(parse_attributes(op("onnx.Mul-7"), {}).rule, Rule::numpy);
    EXPECT_THROW(parse_attributes(op("onnx.Div-14"), {{"broadcast", "1"}}), Rejected);
}

TEST(OnednnAttributes, OpenvinoDefaultsAndValues) {
    const Attributes mul = parse_attributes(op("openvino.Multiply-1"), {});
    EXPECT_EQ(mul.rule, Rule::numpy);
    EXPECT_EQ(mul.axis, -1);
    EXPECT_FALSE(mul.floor_division);
    EXPECT_TRUE(parse_attributes(op("openvino.Divide-1"), {}).floor_division);
    EXPECT_FALSE(parse_attributes(op("openvino.Divide-1"), {{"pythondiv", "0"}}).floor_division);
    const Attributes p = parse_attributes(
        op("openvino.Divide-1"), {{"auto_broadcast", "PDPD"}, {"auto_broadcast_axis", "1"}});
    EXPECT_EQ(p.rule, Rule::pdpd);
    EXPECT_EQ(p.axis, 1);
    EXPECT_EQ(parse_attributes(op("openvino.Multiply-1"), {{"auto_broadcast", "none"}}).rule,
              Rule::none);
}

TEST(OnednnAttributes, OpenvinoRejects) {
    const OpVersion& div = op("openvino.Divide-1");
    EXPECT_THROW(parse_attributes(div, {{"auto_broadcast", "explicit"}}), Rejected);
    EXPECT_THROW(parse_attributes(div, {{"auto_broadcast_axis", "-2"}}), Rejected);
    EXPECT_THROW(parse_attributes(div, {{"m_pythondiv", "yes"}}), Rejected);
    EXPECT_THROW(parse_attributes(div, {{"m_pythondiv", "1"}, {"pythondiv", "1"}}), Rejected);
    EXPECT_THROW(parse_attributes(op("openvino.Multiply-1"), {{"m_pythondiv", "1"}}), Rejected);
}

TEST(OnednnTypes, SchemaChecks) {
    EXPECT_NO_THROW(check_types(op("onnx.Mul-13"), "bf16", "bf16"));
    EXPECT_THROW(check_types(op("onnx.Mul-13"), "i8", "i8"), Rejected);
    EXPECT_THROW(check_types(op("onnx.Mul-1"), "i32", "i32"), Rejected);
    EXPECT_THROW(check_types(op("openvino.Multiply-1"), "i32", "f32"), Rejected);
    EXPECT_THROW(check_types(op("openvino.Multiply-1"), "boolean", "boolean"), Rejected);
    EXPECT_TRUE(allows(op("onnx.Div-14"), "u16"));
    EXPECT_FALSE(allows(op("onnx.Div-7"), "bf16"));
    EXPECT_EQ(find_op("onnx.Mul-2"), nullptr);
}

}  // namespace
}  // namespace backends::adapters::onednn
