#include "core/op_config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/error.hpp"

namespace core {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

[[noreturn]] void bad_value(const OpVersion& op, const AttributeSpec& spec,
                            const std::string& value, const std::string& why) {
    throw Error(ErrorKind::attribute, op.id() + ": attribute " + std::string(spec.name) + "=\"" +
                                          value + "\" is invalid: " + why);
}

std::optional<long long> parse_integer(std::string_view text) {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end) return std::nullopt;
    return v;
}

// Checks one value against its spec and returns its canonical text (lower-case, trimmed).
std::string validate(const OpVersion& op, const AttributeSpec& spec, const std::string& value) {
    const std::string v = lower(value);
    switch (spec.type) {
        case AttributeType::boolean:
            if (v == "true" || v == "1") return "true";
            if (v == "false" || v == "0") return "false";
            bad_value(op, spec, value, "expected true or false");
        case AttributeType::integer: {
            const auto n = parse_integer(v);
            if (!n) bad_value(op, spec, value, "expected an integer");
            if (spec.minimum && *n < *spec.minimum)
                bad_value(op, spec, value, "must be at least " + std::to_string(*spec.minimum));
            break;
        }
        case AttributeType::integers: {
            std::string_view rest = v;
            while (!rest.empty()) {
                const auto comma = rest.find(',');
                if (!parse_integer(rest.substr(0, comma)))
                    bad_value(op, spec, value, "expected comma-separated integers");
                rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
            }
            break;
        }
        case AttributeType::string:
            break;
    }
    if (!spec.allowed.empty() &&
        std::find(spec.allowed.begin(), spec.allowed.end(), v) == spec.allowed.end()) {
        std::string list;
        for (auto a : spec.allowed) {
            if (!list.empty()) list += ", ";
            list += a;
        }
        bad_value(op, spec, value, "allowed values are " + list);
    }
    return v;
}

// Canonical value of every attribute that is set or has a default.
std::map<std::string_view, std::string> effective_values(const OpVersion& op,
                                                         const AttributeMap& attributes) {
    std::map<std::string_view, std::string> values;
    for (const auto& [key, value] : attributes) {
        const AttributeSpec* spec = op.attribute(key);
        if (!spec) {
            std::string known;
            for (const auto& a : op.attributes) {
                if (!known.empty()) known += ", ";
                known += a.name;
            }
            throw Error(ErrorKind::attribute,
                        op.id() + " has no attribute '" + key + "'" +
                            (known.empty() ? " (it takes none)" : " (it takes: " + known + ")"));
        }
        if (values.count(spec->name))
            throw Error(ErrorKind::attribute,
                        op.id() + ": attribute " + std::string(spec->name) + " is given twice");
        values[spec->name] = validate(op, *spec, value);
    }
    for (const auto& spec : op.attributes)
        if (!values.count(spec.name) && spec.default_value)
            values[spec.name] = std::string(*spec.default_value);
    return values;
}

BroadcastSpec broadcast_of(const OpVersion& op, const std::map<std::string_view, std::string>& v) {
    switch (op.broadcast) {
        case BroadcastFamily::multidirectional:
            return {BroadcastRule::numpy, std::nullopt};
        case BroadcastFamily::onnx_legacy: {
            if (v.at("broadcast") == "0") return {BroadcastRule::none, std::nullopt};
            std::optional<std::int64_t> axis;
            if (v.count("axis")) axis = std::stoll(v.at("axis"));
            return {BroadcastRule::onnx_legacy, axis};
        }
        case BroadcastFamily::auto_broadcast: {
            const std::string& rule = v.at("auto_broadcast");
            if (rule == "none") return {BroadcastRule::none, std::nullopt};
            if (rule == "numpy") return {BroadcastRule::numpy, std::nullopt};
            return {BroadcastRule::pdpd, std::stoll(v.at("auto_broadcast_axis"))};
        }
    }
    __builtin_unreachable();
}

}  // namespace

// As broadcast_of resolves them.
std::vector<BroadcastRule> broadcast_rules(const OpVersion& op) {
    switch (op.broadcast) {
        case BroadcastFamily::multidirectional:
            return {BroadcastRule::numpy};
        case BroadcastFamily::onnx_legacy:
            return {BroadcastRule::none, BroadcastRule::onnx_legacy};
        case BroadcastFamily::auto_broadcast:
            return {BroadcastRule::none, BroadcastRule::numpy, BroadcastRule::pdpd};
    }
    __builtin_unreachable();
}

std::optional<AttributeMap> rule_attributes(const OpVersion& op, BroadcastRule rule,
                                            std::optional<std::int64_t> axis) {
    const std::vector<BroadcastRule> offered = broadcast_rules(op);
    if (std::find(offered.begin(), offered.end(), rule) == offered.end()) return std::nullopt;
    const bool axis_given = axis && takes_axis(rule);
    switch (op.broadcast) {
        case BroadcastFamily::multidirectional:
            return AttributeMap{};
        case BroadcastFamily::onnx_legacy: {
            AttributeMap out{{"broadcast", rule == BroadcastRule::none ? "0" : "1"}};
            if (axis_given) out["axis"] = std::to_string(*axis);
            return out;
        }
        case BroadcastFamily::auto_broadcast: {
            AttributeMap out{{"auto_broadcast", std::string(name(rule))}};
            if (axis_given) out["auto_broadcast_axis"] = std::to_string(*axis);
            return out;
        }
    }
    __builtin_unreachable();
}

std::vector<IntegerRounding> integer_roundings(const OpVersion& op) {
    switch (op.rounding) {
        case DivisionRounding::not_division:
            return {};
        case DivisionRounding::truncate:
            return {IntegerRounding::truncate};
        case DivisionRounding::pythondiv_attribute:  // m_pythondiv defaults to true
            return {IntegerRounding::floor, IntegerRounding::truncate};
    }
    __builtin_unreachable();
}

std::optional<AttributeMap> rounding_attributes(const OpVersion& op, IntegerRounding rounding) {
    const std::vector<IntegerRounding> offered = integer_roundings(op);
    if (std::find(offered.begin(), offered.end(), rounding) == offered.end()) return std::nullopt;
    switch (op.rounding) {
        case DivisionRounding::not_division:
        case DivisionRounding::truncate:
            return AttributeMap{};
        case DivisionRounding::pythondiv_attribute:
            return AttributeMap{{"m_pythondiv", floors(rounding) ? "true" : "false"}};
    }
    __builtin_unreachable();
}

OpConfig resolve_attributes(const OpVersion& op, const AttributeMap& attributes) {
    const auto values = effective_values(op, attributes);
    OpConfig config;
    config.broadcast = broadcast_of(op, values);
    if (op.rounding == DivisionRounding::pythondiv_attribute)
        config.rounding = floor_if(values.at("m_pythondiv") == "true");
    return config;
}

void check_element_types(const OpVersion& op, ElementType a, ElementType b) {
    if (a == ElementType::boolean || b == ElementType::boolean)
        throw Error(ErrorKind::element_type,
                    op.id() + ": arguments cannot have boolean element type");
    if (a != b)
        throw Error(ErrorKind::element_type, op.id() + ": A is " + std::string(name(a)) +
                                                 " but B is " + std::string(name(b)) +
                                                 "; both inputs must have the same element type");
    if (!op.allows(a))
        throw Error(ErrorKind::element_type, op.id() + " does not allow element type " +
                                                 std::string(name(a)) +
                                                 " (allowed: " + to_string(op.element_types) + ")");
}

PreparedCall prepare_call(const OpVersion& op, const AttributeMap& attributes, ElementType a_type,
                          const Shape& a_shape, ElementType b_type, const Shape& b_shape) {
    check_element_types(op, a_type, b_type);
    PreparedCall call{&op, a_type, resolve_attributes(op, attributes), {}};
    call.plan = make_plan(a_shape, b_shape, call.config.broadcast);
    return call;
}

PreparedCall prepare_call(const OpVersion& op, const AttributeMap& attributes, const Tensor& a,
                          const Tensor& b) {
    return prepare_call(op, attributes, a.type, a.shape, b.type, b.shape);
}

}  // namespace core
