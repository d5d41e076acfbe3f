// `exhaustive8`: all 65,536 (a, b) pairs of i8 and of u8, for every version that allows them, as
// one outer-product case each: A = every value as a column (256,1), B = every value as a row.
#include "case_sources/case_sources.hpp"
#include "case_sources/exhaustive_functions.hpp"

namespace case_sources {
namespace {

core::Tensor all_values(core::ElementType t, core::Shape shape) {
    core::Tensor out = core::Tensor::zeros(t, std::move(shape));
    for (std::size_t i = 0; i < out.bytes.size(); ++i)
        out.bytes[i] = static_cast<std::byte>(i);
    return out;
}

}  // namespace

std::vector<PlannedCase> plan_exhaustive8_cases() {
    std::vector<PlannedCase> out;
    for (ExhaustiveFunction& f :
         exhaustive_functions({core::ElementType::i8, core::ElementType::u8})) {
        const core::ElementType t = f.type;
        out.push_back({"exhaustive8:" + f.id, "exhaustive8", f.op, t, true,
                       [t, attributes = std::move(f.attributes)] {
                           return CaseData{attributes,           all_values(t, {256, 1}),
                                           all_values(t, {256}), true,
                                           std::nullopt,         ""};
                       }});
    }
    return out;
}

}  // namespace case_sources
