// The op-version table: the only place where op versions, their dtypes and attributes are listed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/element_type.hpp"

namespace core {

enum class Arithmetic { multiply, divide };

// How a version broadcasts: ONNX-1/6 legacy (`broadcast`, `axis`), ONNX-7+ multidirectional
// (numpy), or OpenVINO's `auto_broadcast` attribute (none / numpy / pdpd).
enum class BroadcastFamily { onnx_legacy, multidirectional, auto_broadcast };

// Integer division rounding: not a division, always truncate (ONNX), or chosen by the
// `m_pythondiv` attribute (OpenVINO Divide-1: floor when true, truncate when false).
enum class DivisionRounding { not_division, truncate, pythondiv_attribute };

enum class AttributeType { integer, integers, boolean, string };

struct AttributeSpec {
    std::string_view name;
    AttributeType type;
    std::optional<std::string_view> default_value;  // nullopt: optional, no default
    std::vector<std::string_view> allowed;          // non-empty: the only values (case-insensitive)
    std::optional<long long> minimum;               // integers: smallest allowed value
    std::string_view alias;                         // another accepted name, or empty
    std::string_view note;                          // what it does, for `list`
};

struct OpVersion {
    std::string_view domain;  // "onnx" or "openvino"
    std::string_view name;    // "Mul", "Divide", ...
    int version;
    Arithmetic arithmetic;
    std::vector<ElementType> element_types;
    std::vector<AttributeSpec> attributes;
    BroadcastFamily broadcast;
    DivisionRounding rounding;

    std::string id() const;  // "onnx.Mul-7", "openvino.Divide-1"
    bool allows(ElementType t) const;
    const AttributeSpec* attribute(std::string_view name_or_alias) const;
};

const std::vector<OpVersion>& op_versions();

// Finds a version by id ("onnx.Mul-7"; "onnx Mul-7" and "Mul-7" are accepted too).
// Returns nullptr when there is no such version.
const OpVersion* find_op_version(std::string_view id);

std::string_view name(BroadcastFamily f);
std::string_view name(DivisionRounding r);
std::string_view name(AttributeType t);

}  // namespace core
