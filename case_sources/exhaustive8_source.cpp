// `exhaustive8`: all 65,536 (a, b) pairs of i8 and of u8, for every version that allows them, as
// outer-product cases: A = every value as a column (256,1), B = the values as a row. A division
// splits the zero divisor off into a case of its own, `...:b=0x00` (as exhaustive16 does): its
// results are undefined (docs/SEMANTICS.md 2.3), and a backend that refuses them then costs
// that case alone, not the 65,280 defined pairs.
#include "case_sources/case_sources.hpp"
#include "case_sources/exhaustive_functions.hpp"

namespace case_sources {
namespace {

// The values first..255 of an 8-bit type, in bit-pattern order.
core::Tensor values_from(core::ElementType t, core::Shape shape, unsigned first) {
    core::Tensor out = core::Tensor::zeros(t, std::move(shape));
    for (std::size_t i = 0; i < out.bytes.size(); ++i)
        out.bytes[i] = static_cast<std::byte>(first + i);
    return out;
}

PlannedCase outer_product(const ExhaustiveFunction& f, const std::string& id, unsigned first_b,
                          std::int64_t b_count) {
    const core::ElementType t = f.type;
    return {id,
            "exhaustive8",
            f.op,
            t,
            true,
            [t, first_b, b_count, op = f.op, attributes = f.attributes] {
                return core::CaseRecord{.op = op,
                                        .attributes = attributes,
                                        .a = values_from(t, {256, 1}, 0),
                                        .b = values_from(t, {b_count}, first_b)};
            }};
}

}  // namespace

std::vector<PlannedCase> plan_exhaustive8_cases() {
    std::vector<PlannedCase> out;
    for (ExhaustiveFunction& f :
         exhaustive_functions({core::ElementType::i8, core::ElementType::u8})) {
        const std::string id = "exhaustive8:" + f.id;
        if (f.op->arithmetic == core::Arithmetic::multiply) {
            out.push_back(outer_product(f, id, 0, 256));
            continue;
        }
        out.push_back(outer_product(f, id, 1, 255));
        out.push_back(outer_product(f, id + ":b=0x00", 0, 1));
    }
    return out;
}

}  // namespace case_sources
