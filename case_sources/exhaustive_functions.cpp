#include "case_sources/exhaustive_functions.hpp"

namespace case_sources {
namespace {

struct Setting {
    core::AttributeMap attributes;
    std::string suffix;  // ":floor", ":trunc", or empty
};

// A version whose calls can round two ways (Divide-1's m_pythondiv) once per rounding, its
// default first; every other version once, with default attributes.
std::vector<Setting> settings(const core::OpVersion& op) {
    const std::vector<core::IntegerRounding> roundings = core::integer_roundings(op);
    if (roundings.size() < 2) return {{}};
    std::vector<Setting> out;
    for (core::IntegerRounding r : roundings)
        out.push_back({*core::rounding_attributes(op, r), ":" + std::string(core::name(r))});
    return out;
}

}  // namespace

std::vector<ExhaustiveFunction> exhaustive_functions(
    std::initializer_list<core::ElementType> types) {
    std::vector<ExhaustiveFunction> out;
    for (const core::OpVersion& op : core::op_versions())
        for (core::ElementType t : types) {
            if (!op.allows(t)) continue;
            for (Setting& s : settings(op))
                out.push_back({&op, t, std::move(s.attributes),
                               op.id() + ":" + std::string(core::name(t)) + s.suffix});
        }
    return out;
}

}  // namespace case_sources
