// The op-version table and call validation, checked against docs/SEMANTICS.md sections 1 and 4.
#include "core/op_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/op_config.hpp"

namespace core {
namespace {

using enum ElementType;
using TypeSet = std::set<ElementType>;

// docs/SEMANTICS.md section 1, written out per version (not derived from one another on
// purpose).
const std::map<std::string, TypeSet> kExpectedTypes = {
    {"onnx.Mul-1", {f16, f32, f64}},
    {"onnx.Mul-6", {f16, f32, f64, i32, i64, u32, u64}},
    {"onnx.Mul-7", {f16, f32, f64, i32, i64, u32, u64}},
    {"onnx.Mul-13", {f16, f32, f64, i32, i64, u32, u64, bf16}},
    {"onnx.Mul-14", {f16, f32, f64, i32, i64, u32, u64, bf16, i8, i16, u8, u16}},
    {"onnx.Div-1", {f16, f32, f64}},
    {"onnx.Div-6", {f16, f32, f64, i32, i64, u32, u64}},
    {"onnx.Div-7", {f16, f32, f64, i32, i64, u32, u64}},
    {"onnx.Div-13", {f16, f32, f64, i32, i64, u32, u64, bf16}},
    {"onnx.Div-14", {f16, f32, f64, i32, i64, u32, u64, bf16, i8, i16, u8, u16}},
    {"openvino.Multiply-1", {i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64}},
    {"openvino.Divide-1", {i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64}},
};

const OpVersion& op(const std::string& id) {
    const OpVersion* found = find_op_version(id);
    if (!found) throw std::logic_error("test setup: no op version " + id);
    return *found;
}

template <class F>
void expect_error(ErrorKind kind, F&& f) {
    try {
        f();
        ADD_FAILURE() << "no core::Error thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
    }
}

TEST(OpTable, ExactlyTheTwelveVersions) {
    std::set<std::string> ids;
    for (const auto& v : op_versions())
        ids.insert(v.id());
    EXPECT_EQ(op_versions().size(), 12u);
    std::set<std::string> expected;
    for (const auto& [id, types] : kExpectedTypes)
        expected.insert(id);
    EXPECT_EQ(ids, expected);
}

TEST(OpTable, ElementTypesMatchTheSpec) {
    for (const auto& [id, expected] : kExpectedTypes) {
        SCOPED_TRACE(id);
        const OpVersion& v = op(id);
        const TypeSet got(v.element_types.begin(), v.element_types.end());
        EXPECT_EQ(got, expected);
        EXPECT_EQ(v.element_types.size(), got.size()) << "duplicates";
        for (const auto& t : kElementTypes)
            EXPECT_EQ(v.allows(t.type), expected.count(t.type) == 1);
    }
}

TEST(OpTable, IdentityFields) {
    const OpVersion& mul6 = op("onnx.Mul-6");
    EXPECT_EQ(mul6.domain, "onnx");
    EXPECT_EQ(mul6.name, "Mul");
    EXPECT_EQ(mul6.version, 6);
    EXPECT_EQ(mul6.arithmetic, Arithmetic::multiply);
    const OpVersion& divide = op("openvino.Divide-1");
    EXPECT_EQ(divide.domain, "openvino");
    EXPECT_EQ(divide.name, "Divide");
    EXPECT_EQ(divide.version, 1);
    EXPECT_EQ(divide.arithmetic, Arithmetic::divide);
    EXPECT_EQ(op("onnx.Div-14").arithmetic, Arithmetic::divide);
    EXPECT_EQ(op("openvino.Multiply-1").arithmetic, Arithmetic::multiply);
}

TEST(OpTable, BroadcastFamilyAndDivisionRounding) {
    for (const char* name : {"Mul", "Div"}) {
        for (int version : {1, 6, 7, 13, 14}) {
            const OpVersion& v = op("onnx." + std::string(name) + "-" + std::to_string(version));
            SCOPED_TRACE(v.id());
            EXPECT_EQ(v.broadcast, version < 7 ? BroadcastFamily::onnx_legacy
                                               : BroadcastFamily::multidirectional);
            EXPECT_EQ(v.rounding, std::string(name) == "Div" ? DivisionRounding::truncate
                                                             : DivisionRounding::not_division);
        }
    }
    EXPECT_EQ(op("openvino.Multiply-1").broadcast, BroadcastFamily::auto_broadcast);
    EXPECT_EQ(op("openvino.Multiply-1").rounding, DivisionRounding::not_division);
    EXPECT_EQ(op("openvino.Divide-1").broadcast, BroadcastFamily::auto_broadcast);
    EXPECT_EQ(op("openvino.Divide-1").rounding, DivisionRounding::pythondiv_attribute);
}

std::set<std::string> attribute_names(const OpVersion& v) {
    std::set<std::string> names;
    for (const auto& a : v.attributes)
        names.emplace(a.name);
    return names;
}

TEST(OpTable, OnnxLegacyAttributes) {
    for (const char* id : {"onnx.Mul-1", "onnx.Div-1"}) {
        SCOPED_TRACE(id);
        const OpVersion& v = op(id);
        EXPECT_EQ(attribute_names(v),
                  (std::set<std::string>{"broadcast", "axis", "consumed_inputs"}));
        ASSERT_NE(v.attribute("broadcast"), nullptr);
        EXPECT_EQ(v.attribute("broadcast")->default_value, "0");
        EXPECT_EQ(v.attribute("broadcast")->type, AttributeType::integer);
        EXPECT_FALSE(v.attribute("axis")->default_value.has_value());
        EXPECT_EQ(v.attribute("axis")->type, AttributeType::integer);
        EXPECT_EQ(v.attribute("consumed_inputs")->type, AttributeType::integers);
    }
    for (const char* id : {"onnx.Mul-6", "onnx.Div-6"}) {
        SCOPED_TRACE(id);
        const OpVersion& v = op(id);
        EXPECT_EQ(attribute_names(v), (std::set<std::string>{"broadcast", "axis"}));
        EXPECT_EQ(v.attribute("broadcast")->default_value, "0");
        EXPECT_FALSE(v.attribute("axis")->default_value.has_value());
    }
    for (const char* id :
         {"onnx.Mul-7", "onnx.Mul-13", "onnx.Mul-14", "onnx.Div-7", "onnx.Div-13", "onnx.Div-14"})
        EXPECT_TRUE(op(id).attributes.empty()) << id;
}

TEST(OpTable, OpenVinoAttributes) {
    const OpVersion& multiply = op("openvino.Multiply-1");
    EXPECT_EQ(attribute_names(multiply),
              (std::set<std::string>{"auto_broadcast", "auto_broadcast_axis"}));
    EXPECT_EQ(multiply.attribute("auto_broadcast")->default_value, "numpy");
    EXPECT_EQ(multiply.attribute("auto_broadcast")->type, AttributeType::string);
    EXPECT_EQ(multiply.attribute("auto_broadcast_axis")->default_value, "-1");
    EXPECT_EQ(multiply.attribute("auto_broadcast_axis")->type, AttributeType::integer);

    const OpVersion& divide = op("openvino.Divide-1");
    EXPECT_EQ(attribute_names(divide),
              (std::set<std::string>{"auto_broadcast", "auto_broadcast_axis", "m_pythondiv"}));
    EXPECT_EQ(divide.attribute("auto_broadcast")->default_value, "numpy");
    EXPECT_EQ(divide.attribute("auto_broadcast_axis")->default_value, "-1");
    const AttributeSpec* pythondiv = divide.attribute("m_pythondiv");
    ASSERT_NE(pythondiv, nullptr);
    EXPECT_EQ(pythondiv->default_value, "true");
    EXPECT_EQ(pythondiv->type, AttributeType::boolean);
    EXPECT_EQ(divide.attribute("pythondiv"), pythondiv);  // the spec text's spelling
    EXPECT_EQ(multiply.attribute("m_pythondiv"), nullptr);
    EXPECT_EQ(multiply.attribute("pythondiv"), nullptr);
}

TEST(OpTable, FindOpVersionAcceptsThreeSpellings) {
    const OpVersion* full = find_op_version("onnx.Mul-7");
    ASSERT_NE(full, nullptr);
    EXPECT_EQ(full->id(), "onnx.Mul-7");
    EXPECT_EQ(find_op_version("onnx Mul-7"), full);
    EXPECT_EQ(find_op_version("Mul-7"), full);
    ASSERT_NE(find_op_version("Divide-1"), nullptr);
    EXPECT_EQ(find_op_version("Divide-1")->id(), "openvino.Divide-1");
    EXPECT_EQ(find_op_version("openvino Multiply-1"), find_op_version("openvino.Multiply-1"));
}

TEST(OpTable, FindOpVersionRejectsUnknownIds) {
    for (const char* id :
         {"onnx.Mul-8", "Mul-2", "onnx.Multiply-1", "openvino.Mul-7", "Mul", "", "Divide-2"})
        EXPECT_EQ(find_op_version(id), nullptr) << id;
}

// ---- check_element_types ----

TEST(OpConfig, EveryListedTypeAcceptedEveryOtherRejected) {
    for (const auto& [id, allowed] : kExpectedTypes) {
        const OpVersion& v = op(id);
        for (const auto& t : kElementTypes) {
            SCOPED_TRACE(id + " " + std::string(t.name));
            if (allowed.count(t.type))
                EXPECT_NO_THROW(check_element_types(v, t.type, t.type));
            else
                expect_error(ErrorKind::element_type,
                             [&] { check_element_types(v, t.type, t.type); });
        }
    }
}

TEST(OpConfig, NamedElementTypeRejections) {
    expect_error(ErrorKind::element_type, [] { check_element_types(op("onnx.Mul-13"), i8, i8); });
    expect_error(ErrorKind::element_type, [] { check_element_types(op("onnx.Mul-1"), i32, i32); });
    expect_error(ErrorKind::element_type,
                 [] { check_element_types(op("onnx.Div-7"), bf16, bf16); });
}

TEST(OpConfig, BooleanAndMixedTypesRejected) {
    for (const auto& v : op_versions()) {
        SCOPED_TRACE(v.id());
        expect_error(ErrorKind::element_type, [&] { check_element_types(v, boolean, boolean); });
        expect_error(ErrorKind::element_type, [&] { check_element_types(v, f32, f64); });
        expect_error(ErrorKind::element_type, [&] { check_element_types(v, f16, f32); });
    }
    expect_error(ErrorKind::element_type,
                 [] { check_element_types(op("openvino.Multiply-1"), i32, u32); });
    expect_error(ErrorKind::element_type,
                 [] { check_element_types(op("openvino.Multiply-1"), f32, boolean); });
}

// ---- resolve_attributes ----

BroadcastSpec broadcast_of(const std::string& id, const AttributeMap& attributes) {
    return resolve_attributes(op(id), attributes).broadcast;
}

void expect_rule(const BroadcastSpec& got, BroadcastRule rule, std::optional<std::int64_t> axis) {
    EXPECT_EQ(got.rule, rule);
    EXPECT_EQ(got.axis, axis);
}

TEST(OpConfig, OnnxLegacyBroadcastResolution) {
    for (const char* id : {"onnx.Mul-1", "onnx.Mul-6", "onnx.Div-1", "onnx.Div-6"}) {
        SCOPED_TRACE(id);
        expect_rule(broadcast_of(id, {}), BroadcastRule::none, std::nullopt);
        expect_rule(broadcast_of(id, {{"broadcast", "0"}}), BroadcastRule::none, std::nullopt);
        expect_rule(broadcast_of(id, {{"broadcast", "1"}}), BroadcastRule::onnx_legacy,
                    std::nullopt);
        expect_rule(broadcast_of(id, {{"broadcast", "1"}, {"axis", "1"}}),
                    BroadcastRule::onnx_legacy, 1);
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"broadcast", "2"}}); });
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"broadcast", "yes"}}); });
        expect_error(ErrorKind::attribute, [&] {
            broadcast_of(id, {{"broadcast", "1"}, {"axis", "x"}});
        });
    }
    EXPECT_NO_THROW(broadcast_of("onnx.Mul-1", {{"consumed_inputs", "0,1"}}));
    expect_error(ErrorKind::attribute, [] {
        broadcast_of("onnx.Mul-6", {{"consumed_inputs", "0"}});
    });
}

TEST(OpConfig, MultidirectionalVersionsTakeNoAttributes) {
    for (const char* id :
         {"onnx.Mul-7", "onnx.Mul-13", "onnx.Mul-14", "onnx.Div-7", "onnx.Div-13", "onnx.Div-14"}) {
        SCOPED_TRACE(id);
        expect_rule(broadcast_of(id, {}), BroadcastRule::numpy, std::nullopt);
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"broadcast", "1"}}); });
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"axis", "0"}}); });
    }
}

TEST(OpConfig, AutoBroadcastResolution) {
    for (const char* id : {"openvino.Multiply-1", "openvino.Divide-1"}) {
        SCOPED_TRACE(id);
        expect_rule(broadcast_of(id, {}), BroadcastRule::numpy, std::nullopt);
        expect_rule(broadcast_of(id, {{"auto_broadcast", "none"}}), BroadcastRule::none,
                    std::nullopt);
        expect_rule(broadcast_of(id, {{"auto_broadcast", "NUMPY"}}), BroadcastRule::numpy,
                    std::nullopt);
        expect_rule(broadcast_of(id, {{"auto_broadcast", "PDPD"}}), BroadcastRule::pdpd, -1);
        expect_rule(broadcast_of(id, {{"auto_broadcast", "Pdpd"}, {"auto_broadcast_axis", "2"}}),
                    BroadcastRule::pdpd, 2);
        expect_error(ErrorKind::attribute, [&] {
            broadcast_of(id, {{"auto_broadcast", "bogus"}});
        });
        expect_error(ErrorKind::attribute, [&] {
            broadcast_of(id, {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "-2"}});
        });
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"broadcast", "1"}}); });
        expect_error(ErrorKind::attribute, [&] { broadcast_of(id, {{"unknown", "1"}}); });
    }
}

IntegerRounding rounding_of(const std::string& id, const AttributeMap& attributes) {
    return resolve_attributes(op(id), attributes).rounding;
}

TEST(OpConfig, PythonDivChoosesFloorOrTruncate) {
    const std::string divide = "openvino.Divide-1";
    EXPECT_EQ(rounding_of(divide, {}), IntegerRounding::floor);  // default true
    EXPECT_EQ(rounding_of(divide, {{"m_pythondiv", "true"}}), IntegerRounding::floor);
    EXPECT_EQ(rounding_of(divide, {{"m_pythondiv", "false"}}), IntegerRounding::truncate);
    EXPECT_EQ(rounding_of(divide, {{"pythondiv", "false"}}), IntegerRounding::truncate);
    EXPECT_EQ(rounding_of(divide, {{"m_pythondiv", "True"}}), IntegerRounding::floor);
    expect_error(ErrorKind::attribute, [&] { rounding_of(divide, {{"m_pythondiv", "maybe"}}); });
    expect_error(ErrorKind::attribute, [&] {
        rounding_of(divide, {{"m_pythondiv", "true"}, {"pythondiv", "false"}});  // given twice
    });
    expect_error(ErrorKind::attribute, [] {
        rounding_of("openvino.Multiply-1", {{"m_pythondiv", "true"}});
    });
}

TEST(OpConfig, OnnxDivTruncates) {
    for (const char* id : {"onnx.Div-1", "onnx.Div-6", "onnx.Div-7", "onnx.Div-13", "onnx.Div-14"})
        EXPECT_EQ(rounding_of(id, {}), IntegerRounding::truncate) << id;
}

// ---- rule_attributes, integer_roundings, rounding_attributes ----

TEST(OpConfig, RuleAttributesSpellEachFamilysSelector) {
    const OpVersion& mul7 = op("onnx.Mul-7");
    EXPECT_EQ(rule_attributes(mul7, BroadcastRule::numpy, 2), AttributeMap{});
    EXPECT_EQ(rule_attributes(mul7, BroadcastRule::none, std::nullopt), std::nullopt);
    const OpVersion& mul6 = op("onnx.Mul-6");
    EXPECT_EQ(rule_attributes(mul6, BroadcastRule::none, 1), (AttributeMap{{"broadcast", "0"}}));
    EXPECT_EQ(rule_attributes(mul6, BroadcastRule::onnx_legacy, std::nullopt),
              (AttributeMap{{"broadcast", "1"}}));
    EXPECT_EQ(rule_attributes(mul6, BroadcastRule::onnx_legacy, 0),
              (AttributeMap{{"broadcast", "1"}, {"axis", "0"}}));
    EXPECT_EQ(rule_attributes(mul6, BroadcastRule::pdpd, 0), std::nullopt);
    const OpVersion& multiply = op("openvino.Multiply-1");
    EXPECT_EQ(rule_attributes(multiply, BroadcastRule::numpy, 1),
              (AttributeMap{{"auto_broadcast", "numpy"}}));
    EXPECT_EQ(rule_attributes(multiply, BroadcastRule::pdpd, -1),
              (AttributeMap{{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "-1"}}));
    EXPECT_EQ(rule_attributes(multiply, BroadcastRule::onnx_legacy, 0), std::nullopt);
}

// Whatever rule a version offers, its attributes resolve back to that rule and axis.
TEST(OpConfig, RuleAttributesResolveToTheirRule) {
    for (const OpVersion& v : op_versions())
        for (BroadcastRule rule : broadcast_rules(v)) {
            const std::optional<std::int64_t> axis =
                takes_axis(rule) ? std::optional<std::int64_t>(1) : std::nullopt;
            const BroadcastSpec spec =
                resolve_attributes(v, *rule_attributes(v, rule, axis)).broadcast;
            EXPECT_EQ(spec.rule, rule) << v.id();
            EXPECT_EQ(spec.axis, axis) << v.id();
        }
}

TEST(OpConfig, IntegerRoundingsOfEachVersion) {
    using R = std::vector<IntegerRounding>;
    EXPECT_EQ(integer_roundings(op("onnx.Mul-14")), R{});
    EXPECT_EQ(integer_roundings(op("openvino.Multiply-1")), R{});
    EXPECT_EQ(integer_roundings(op("onnx.Div-7")), R{IntegerRounding::truncate});
    // m_pythondiv defaults to true: floor first.
    EXPECT_EQ(integer_roundings(op("openvino.Divide-1")),
              (R{IntegerRounding::floor, IntegerRounding::truncate}));
    EXPECT_EQ(rounding_attributes(op("onnx.Div-7"), IntegerRounding::truncate), AttributeMap{});
    EXPECT_EQ(rounding_attributes(op("onnx.Div-7"), IntegerRounding::floor), std::nullopt);
    EXPECT_EQ(rounding_attributes(op("onnx.Mul-7"), IntegerRounding::truncate), std::nullopt);
    EXPECT_EQ(rounding_attributes(op("openvino.Divide-1"), IntegerRounding::floor),
              (AttributeMap{{"m_pythondiv", "true"}}));
    EXPECT_EQ(rounding_attributes(op("openvino.Divide-1"), IntegerRounding::truncate),
              (AttributeMap{{"m_pythondiv", "false"}}));
}

// A version without division is a multiplication, and a division has a rounding.
TEST(OpConfig, OnlyDivisionsRound) {
    for (const OpVersion& v : op_versions())
        EXPECT_EQ(integer_roundings(v).empty(), v.arithmetic == Arithmetic::multiply) << v.id();
}

// ---- prepare_call ----

TEST(OpConfig, PrepareCallCombinesTypesAttributesAndPlan) {
    const Tensor a = Tensor::zeros(f32, {2, 3, 4, 5});
    const Tensor b = Tensor::zeros(f32, {3, 4});
    const PreparedCall call =
        prepare_call(op("onnx.Mul-6"), {{"broadcast", "1"}, {"axis", "1"}}, a, b);
    EXPECT_EQ(call.op, &op("onnx.Mul-6"));
    EXPECT_EQ(call.type, f32);
    expect_rule(call.config.broadcast, BroadcastRule::onnx_legacy, 1);
    EXPECT_EQ(call.plan.output, (Shape{2, 3, 4, 5}));
    EXPECT_EQ(call.plan.b_strides, (std::vector<std::int64_t>{0, 4, 1, 0}));
}

TEST(OpConfig, PrepareCallRejectsEachKindOfFault) {
    const Tensor a = Tensor::zeros(i32, {2, 3});
    const Tensor b = Tensor::zeros(i32, {3});
    const Tensor c = Tensor::zeros(f32, {3});
    EXPECT_NO_THROW(prepare_call(op("onnx.Mul-7"), {}, a, b));
    expect_error(ErrorKind::element_type, [&] { prepare_call(op("onnx.Mul-7"), {}, a, c); });
    expect_error(ErrorKind::element_type, [&] { prepare_call(op("onnx.Mul-1"), {}, a, b); });
    expect_error(ErrorKind::attribute, [&] {
        prepare_call(op("onnx.Mul-7"), {{"broadcast", "1"}}, a, b);
    });
    // Mul-6 without broadcast=1 requires identical shapes.
    expect_error(ErrorKind::shape, [&] { prepare_call(op("onnx.Mul-6"), {}, a, b); });
    expect_error(ErrorKind::shape, [&] {
        prepare_call(op("openvino.Divide-1"), {{"auto_broadcast", "none"}}, a, b);
    });
}

}  // namespace
}  // namespace core
