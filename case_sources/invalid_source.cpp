// `invalid`: inputs the spec requires a backend to reject (docs/SEMANTICS.md section 4):
// near-miss shapes under each broadcast rule, disallowed and mixed element types, bad
// attributes. The reference confirms each rejection when the case is built; a case it accepts
// is run as valid.
#include "case_sources/case_sources.hpp"
#include "core/error.hpp"
#include "generators/op_combinations.hpp"
#include "generators/property_case.hpp"
#include "generators/shape_generators.hpp"
#include "generators/value_generators.hpp"
#include "reference/run.hpp"

namespace case_sources {
namespace {

using generators::Combination;

// Fixes `valid` from what the reference says about the inputs.
core::CaseRecord confirmed(core::CaseRecord d, const core::OpVersion& op) {
    try {
        reference::run(op, d.attributes, d.a, d.b);
        d.valid = true;
        d.note = "the reference accepts this near miss; run as a valid case";
    } catch (const core::Error&) {
        d.valid = false;
    }
    return d;
}

core::Tensor edge_tensor(core::ElementType t, const core::Shape& shape) {
    return generators::tensor_from_pool(t, shape, generators::edge_bits(t));
}

PlannedCase fixed_case(const core::OpVersion& op, const std::string& what, core::ElementType a,
                       core::ElementType b, core::AttributeMap attributes, core::Shape b_shape) {
    const std::string id = "invalid:" + op.id() + ":" + what;
    return {id, "invalid", &op, a, false, [=, &op] {
                return confirmed({.op = &op,
                                  .attributes = attributes,
                                  .a = edge_tensor(a, {2, 3}),
                                  .b = edge_tensor(b, b_shape),
                                  .valid = false},
                                 op);
            }};
}

// One near-miss pair per n for each rule the version offers, spread over its element types.
void add_near_misses(std::vector<PlannedCase>& out, const core::OpVersion& op, std::uint64_t seed,
                     int count) {
    for (const Combination& c : generators::all_combinations()) {
        if (c.op != &op || c.type != op.element_types.front() || c.pythondiv == false) continue;
        for (int n = 0; n < count; ++n) {
            Combination typed = c;
            typed.type = op.element_types[static_cast<std::size_t>(n) % op.element_types.size()];
            const std::string id = "invalid:" + op.id() +
                                   ":shape:" + std::string(core::name(c.rule)) +
                                   ":seed=" + std::to_string(seed) + ":n=" + std::to_string(n);
            const std::uint64_t stream = std::hash<std::string>{}(id);
            out.push_back({id, "invalid", &op, typed.type, false, [typed, stream, &op] {
                               const auto gen = generators::case_of(
                                   typed, generators::near_miss_shapes(typed.rule));
                               const generators::Case k = gen(rc::Random(stream)).value();
                               return confirmed({.op = &op,
                                                 .attributes = k.attributes,
                                                 .a = k.a,
                                                 .b = k.b,
                                                 .valid = false},
                                                op);
                           }});
        }
    }
}

void add_type_cases(std::vector<PlannedCase>& out, const core::OpVersion& op) {
    for (const core::ElementTypeInfo& info : core::kElementTypes)
        if (!op.allows(info.type))
            out.push_back(fixed_case(op, "dtype:" + std::string(info.name), info.type, info.type,
                                     {}, {2, 3}));
    const auto& types = op.element_types;
    for (std::size_t i = 0; i < types.size(); ++i) {
        const core::ElementType a = types[i], b = types[(i + 1) % types.size()];
        if (a == b) continue;
        out.push_back(
            fixed_case(op, "mixed:" + std::string(core::name(a)) + "," + std::string(core::name(b)),
                       a, b, {}, {2, 3}));
    }
}

// Values each attribute forbids: outside its allowed list, of the wrong type, below its minimum.
std::vector<std::string> bad_values(const core::AttributeSpec& spec) {
    switch (spec.type) {
        case core::AttributeType::string:
            return {"bogus"};
        case core::AttributeType::boolean:
            return {"maybe"};
        case core::AttributeType::integer: {
            std::vector<std::string> out = {"x"};
            if (spec.minimum) out.push_back(std::to_string(*spec.minimum - 1));
            if (!spec.allowed.empty()) out.push_back("7");
            return out;
        }
        case core::AttributeType::integers:
            return {"1,x"};
    }
    return {};
}

void add_attribute_cases(std::vector<PlannedCase>& out, const core::OpVersion& op) {
    const core::ElementType t = op.element_types.front();
    out.push_back(fixed_case(op, "attribute:frobnicate=1", t, t, {{"frobnicate", "1"}}, {2, 3}));
    for (const core::AttributeSpec& spec : op.attributes)
        for (const std::string& v : bad_values(spec))
            out.push_back(fixed_case(op, "attribute:" + std::string(spec.name) + "=" + v, t, t,
                                     {{std::string(spec.name), v}}, {2, 3}));
    // An axis that does not fit: B = (3) cannot start at axis 5 of A = (2,3).
    if (op.attribute("axis"))
        out.push_back(
            fixed_case(op, "attribute:axis=5", t, t, {{"broadcast", "1"}, {"axis", "5"}}, {3}));
    if (op.attribute("auto_broadcast_axis"))
        out.push_back(fixed_case(op, "attribute:auto_broadcast_axis=5", t, t,
                                 {{"auto_broadcast", "pdpd"}, {"auto_broadcast_axis", "5"}}, {3}));
}

}  // namespace

std::vector<PlannedCase> plan_invalid_cases(std::uint64_t seed, int count) {
    std::vector<PlannedCase> out;
    for (const core::OpVersion& op : core::op_versions()) {
        add_near_misses(out, op, seed, count);
        add_type_cases(out, op);
        add_attribute_cases(out, op);
    }
    return out;
}

}  // namespace case_sources
