#include "generators/property_case.hpp"

#include "core/element_text.hpp"
#include "generators/value_generators.hpp"

namespace generators {

std::string descriptor(const Case& c) {
    std::string out = c.combination.op->id() + ":" + std::string(core::name(c.a.type));
    if (c.b.type != c.a.type) out += "," + std::string(core::name(c.b.type));
    out += ":" + core::to_string(c.a.shape) + ":" + core::to_string(c.b.shape);
    for (const auto& [key, value] : c.attributes)
        out += ":" + key + "=" + value;
    return out;
}

std::string elements_text(const core::Tensor& t) {
    std::string out = "[";
    for (std::int64_t i = 0; i < t.size(); ++i) {
        if (i) out += ", ";
        out += core::format_element(t, i);
    }
    return out + "]";
}

void showValue(const Case& c, std::ostream& os) {
    os << descriptor(c) << "\n  A = " << elements_text(c.a) << "\n  B = " << elements_text(c.b);
}

Case make_case(const Combination& c, const ShapeCase& s, core::AttributeMap attributes,
               core::Tensor a, core::Tensor b) {
    Case k;
    k.op = c.op;
    k.attributes = std::move(attributes);
    k.a = std::move(a);
    k.b = std::move(b);
    k.combination = c;
    k.shapes = s;
    return k;
}

rc::Gen<Case> case_of(const Combination& c, rc::Gen<ShapeCase> shapes) {
    return rc::gen::exec([c, shapes] {
        // Values first, shapes second: RapidCheck regenerates the picks after the one it
        // shrinks, so this order lets the shapes shrink while the (shrunk) values stay.
        const auto pool_a = *element_pool(c.type);
        const auto pool_b = *element_pool(c.type);
        // inRange narrows its range at small test sizes, which would give mostly scalars: the
        // shapes are small anyway, so every case draws them from the full ranges.
        const ShapeCase s = *rc::gen::resize(rc::kNominalSize, shapes);
        const bool omit_defaults = *rc::gen::arbitrary<bool>();
        return make_case(c, s, attributes_for(c, s.axis, omit_defaults),
                         tensor_from_pool(c.type, s.a, pool_a),
                         tensor_from_pool(c.type, s.b, pool_b));
    });
}

rc::Gen<Case> zero_valued_case(const Combination& c, rc::Gen<ShapeCase> shapes) {
    return rc::gen::exec([c, shapes] {
        const ShapeCase s = *rc::gen::resize(rc::kNominalSize, shapes);
        const bool omit_defaults = *rc::gen::arbitrary<bool>();
        return make_case(c, s, attributes_for(c, s.axis, omit_defaults),
                         core::Tensor::zeros(c.type, s.a), core::Tensor::zeros(c.type, s.b));
    });
}

rc::Gen<Case> valid_case(const Combination& c) {
    return case_of(c, compatible_shapes(c.rule));
}

}  // namespace generators
