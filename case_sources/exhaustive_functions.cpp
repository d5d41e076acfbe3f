#include "case_sources/exhaustive_functions.hpp"

namespace case_sources {
namespace {

// Divide-1 once per m_pythondiv value; every other version once, with default attributes.
std::vector<core::AttributeMap> settings(const core::OpVersion& op) {
    if (op.rounding != core::DivisionRounding::pythondiv_attribute) return {{}};
    return {{{"m_pythondiv", "true"}}, {{"m_pythondiv", "false"}}};
}

}  // namespace

std::vector<ExhaustiveFunction> exhaustive_functions(
    std::initializer_list<core::ElementType> types) {
    std::vector<ExhaustiveFunction> out;
    for (const core::OpVersion& op : core::op_versions())
        for (core::ElementType t : types) {
            if (!op.allows(t)) continue;
            for (core::AttributeMap& attributes : settings(op)) {
                std::string id = op.id() + ":" + std::string(core::name(t));
                if (!attributes.empty())
                    id += attributes.at("m_pythondiv") == "true" ? ":floor" : ":trunc";
                out.push_back({&op, t, std::move(attributes), std::move(id)});
            }
        }
    return out;
}

}  // namespace case_sources
