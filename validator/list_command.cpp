// `list`: the op-version table as text or JSON.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/op_table.hpp"
#include "validator/commands.hpp"

namespace validator {
namespace {

std::string describe(const core::AttributeSpec& a) {
    std::string s = std::string(a.name) + ": " + std::string(core::name(a.type));
    s += a.default_value ? ", default " + std::string(*a.default_value) : ", optional";
    if (!a.allowed.empty()) {
        std::string values;
        for (auto v : a.allowed) {
            if (!values.empty()) values += "|";
            values += v;
        }
        s += ", one of " + values;
    }
    if (a.minimum) s += ", >= " + std::to_string(*a.minimum);
    if (!a.alias.empty()) s += ", alias " + std::string(a.alias);
    return s + " (" + std::string(a.note) + ")";
}

nlohmann::json to_json(const core::OpVersion& op) {
    nlohmann::json attributes = nlohmann::json::array();
    for (const auto& a : op.attributes) {
        nlohmann::json j{{"name", a.name}, {"type", core::name(a.type)}, {"note", a.note}};
        j["default"] = a.default_value ? nlohmann::json(*a.default_value) : nlohmann::json();
        if (!a.allowed.empty()) j["allowed"] = a.allowed;
        if (a.minimum) j["minimum"] = *a.minimum;
        if (!a.alias.empty()) j["alias"] = a.alias;
        attributes.push_back(j);
    }
    nlohmann::json types = nlohmann::json::array();
    for (core::ElementType t : op.element_types)
        types.push_back(core::name(t));
    return {{"id", op.id()},
            {"domain", op.domain},
            {"name", op.name},
            {"version", op.version},
            {"element_types", types},
            {"attributes", attributes},
            {"broadcast", core::name(op.broadcast)},
            {"division", core::name(op.rounding)}};
}

}  // namespace

int run_list(bool as_json) {
    if (as_json) {
        nlohmann::json table = nlohmann::json::array();
        for (const auto& op : core::op_versions())
            table.push_back(to_json(op));
        std::cout << table.dump(2) << "\n";
        return 0;
    }
    for (const auto& op : core::op_versions()) {
        std::cout << op.id() << "\n"
                  << "    element types: " << core::to_string(op.element_types) << "\n"
                  << "    broadcast:     " << core::name(op.broadcast) << "\n";
        if (op.rounding != core::DivisionRounding::not_division)
            std::cout << "    division:      " << core::name(op.rounding) << "\n";
        if (op.attributes.empty()) std::cout << "    attributes:    none\n";
        for (const auto& a : op.attributes)
            std::cout << "    attribute      " << describe(a) << "\n";
    }
    return 0;
}

}  // namespace validator
