// `exhaustive8`: all 65,536 (a, b) pairs of i8 and of u8, for every version that allows them, as
// one outer-product case each: A = every value as a column (256,1), B = every value as a row.
#include "validator/case_sources.hpp"

namespace validator {
namespace {

core::Tensor all_values(core::ElementType t, core::Shape shape) {
    core::Tensor out = core::Tensor::zeros(t, std::move(shape));
    for (std::size_t i = 0; i < out.bytes.size(); ++i)
        out.bytes[i] = static_cast<std::byte>(i);
    return out;
}

// Divide-1 once per m_pythondiv value; every other version once, with default attributes.
std::vector<core::AttributeMap> settings(const core::OpVersion& op) {
    if (op.rounding != core::DivisionRounding::pythondiv_attribute) return {{}};
    return {{{"m_pythondiv", "true"}}, {{"m_pythondiv", "false"}}};
}

}  // namespace

std::vector<PlannedCase> plan_exhaustive8_cases() {
    std::vector<PlannedCase> out;
    for (const core::OpVersion& op : core::op_versions())
        for (core::ElementType t : {core::ElementType::i8, core::ElementType::u8}) {
            if (!op.allows(t)) continue;
            for (const core::AttributeMap& attributes : settings(op)) {
                std::string id = "exhaustive8:" + op.id() + ":" + std::string(core::name(t));
                if (!attributes.empty())
                    id += attributes.at("m_pythondiv") == "true" ? ":floor" : ":trunc";
                out.push_back({id, "exhaustive8", &op, t, true, [t, attributes] {
                                   return CaseData{attributes,           all_values(t, {256, 1}),
                                                   all_values(t, {256}), true,
                                                   std::nullopt,         ""};
                               }});
            }
        }
    return out;
}

}  // namespace validator
