#include "core/op_table.hpp"

#include <algorithm>

namespace core {
namespace {

using enum ElementType;
using Types = std::vector<ElementType>;

Types operator+(Types a, const Types& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// ONNX type lists per since-version (onnx/defs/math/defs.cc and old.cc); Div mirrors Mul.
const Types kOnnx1 = {f16, f32, f64};
const Types kOnnx6 = kOnnx1 + Types{i32, i64, u32, u64};
const Types kOnnx7 = kOnnx6;
const Types kOnnx13 = kOnnx7 + Types{bf16};
const Types kOnnx14 = kOnnx13 + Types{i8, i16, u8, u16};

// OpenVINO "T: any numeric type": every element type of the suite except boolean.
Types all_numeric() {
    Types out;
    for (const auto& t : kElementTypes)
        if (t.kind != Kind::boolean) out.push_back(t.type);
    return out;
}

const AttributeSpec kBroadcast{"broadcast", AttributeType::integer,         "0", {"0", "1"}, {},
                               {},          "1 enables broadcasting B to A"};
const AttributeSpec kAxis{"axis",
                          AttributeType::integer,
                          std::nullopt,
                          {},
                          0,
                          {},
                          "start of B's dims inside A (broadcast=1); unset: suffix matching"};
const AttributeSpec kConsumedInputs{"consumed_inputs",
                                    AttributeType::integers,
                                    std::nullopt,
                                    {},
                                    {},
                                    {},
                                    "legacy optimization hint, ignored"};
const AttributeSpec kAutoBroadcast{
    "auto_broadcast", AttributeType::string, "numpy", {"none", "numpy", "pdpd"}, {}, {},
    "broadcast rule"};
const AttributeSpec kAutoBroadcastAxis{"auto_broadcast_axis",
                                       AttributeType::integer,
                                       "-1",
                                       {},
                                       -1,
                                       {},
                                       "pdpd: start of B's dims inside A; -1: rank(A)-rank(B)"};
const AttributeSpec kPythonDiv{"m_pythondiv",
                               AttributeType::boolean,
                               "true",
                               {},
                               {},
                               "pythondiv",
                               "integers: floor division if true, truncation if false"};

OpVersion onnx(std::string_view name, int version, const Types& types) {
    const Arithmetic arithmetic = name == "Mul" ? Arithmetic::multiply : Arithmetic::divide;
    const bool legacy = version < 7;
    std::vector<AttributeSpec> attributes;
    if (legacy) attributes = {kBroadcast, kAxis};
    if (version == 1) attributes.push_back(kConsumedInputs);
    return OpVersion{"onnx",
                     name,
                     version,
                     arithmetic,
                     types,
                     attributes,
                     legacy ? BroadcastFamily::onnx_legacy : BroadcastFamily::multidirectional,
                     arithmetic == Arithmetic::divide ? DivisionRounding::truncate
                                                      : DivisionRounding::not_division};
}

std::vector<OpVersion> build_table() {
    std::vector<OpVersion> table;
    for (std::string_view op : {"Mul", "Div"}) {
        table.push_back(onnx(op, 1, kOnnx1));
        table.push_back(onnx(op, 6, kOnnx6));
        table.push_back(onnx(op, 7, kOnnx7));
        table.push_back(onnx(op, 13, kOnnx13));
        table.push_back(onnx(op, 14, kOnnx14));
    }
    table.push_back(OpVersion{"openvino",
                              "Multiply",
                              1,
                              Arithmetic::multiply,
                              all_numeric(),
                              {kAutoBroadcast, kAutoBroadcastAxis},
                              BroadcastFamily::auto_broadcast,
                              DivisionRounding::not_division});
    table.push_back(OpVersion{"openvino",
                              "Divide",
                              1,
                              Arithmetic::divide,
                              all_numeric(),
                              {kAutoBroadcast, kAutoBroadcastAxis, kPythonDiv},
                              BroadcastFamily::auto_broadcast,
                              DivisionRounding::pythondiv_attribute});
    return table;
}

}  // namespace

std::string OpVersion::id() const {
    return std::string(domain) + "." + std::string(name) + "-" + std::to_string(version);
}

bool OpVersion::allows(ElementType t) const {
    return std::find(element_types.begin(), element_types.end(), t) != element_types.end();
}

const AttributeSpec* OpVersion::attribute(std::string_view key) const {
    for (const auto& a : attributes)
        if (a.name == key || (!a.alias.empty() && a.alias == key)) return &a;
    return nullptr;
}

const std::vector<OpVersion>& op_versions() {
    static const std::vector<OpVersion> table = build_table();
    return table;
}

const OpVersion* find_op_version(std::string_view id) {
    for (const auto& op : op_versions()) {
        const std::string full = op.id();
        const std::string spaced = std::string(op.domain) + " " + full.substr(op.domain.size() + 1);
        const std::string bare = full.substr(op.domain.size() + 1);
        if (id == full || id == spaced || id == bare) return &op;
    }
    return nullptr;
}

std::string_view name(BroadcastFamily f) {
    switch (f) {
        case BroadcastFamily::onnx_legacy:
            return "onnx legacy (broadcast, axis)";
        case BroadcastFamily::multidirectional:
            return "numpy (multidirectional)";
        case BroadcastFamily::auto_broadcast:
            return "auto_broadcast (none | numpy | pdpd)";
    }
    return "?";
}

std::string_view name(DivisionRounding r) {
    switch (r) {
        case DivisionRounding::not_division:
            return "-";
        case DivisionRounding::truncate:
            return "integers truncate toward zero";
        case DivisionRounding::pythondiv_attribute:
            return "integers: floor if m_pythondiv, else truncate";
    }
    return "?";
}

std::string_view name(AttributeType t) {
    switch (t) {
        case AttributeType::integer:
            return "int";
        case AttributeType::integers:
            return "ints";
        case AttributeType::boolean:
            return "bool";
        case AttributeType::string:
            return "string";
    }
    return "?";
}

}  // namespace core
