// Property b: core::broadcast_shape, core::make_plan and the output shapes of reference::run and
// oracle::run agree with the independent model of docs/SEMANTICS.md section 3 (broadcast_model),
// on compatible pairs, near misses and arbitrary small pairs, for every triple.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "core/error.hpp"
#include "generators/broadcast_model.hpp"
#include "generators/property_case.hpp"
#include "oracle/run.hpp"
#include "property_tests/property_check.hpp"
#include "reference/run.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

class ShapeInference : public ::testing::TestWithParam<Combination> {};

// The output shape `infer` computes, or nullopt when it throws a shape error.
template <class F>
std::optional<core::Shape> inferred(F&& infer) {
    try {
        return infer();
    } catch (const core::Error& e) {
        if (e.kind() != core::ErrorKind::shape) throw;
        return std::nullopt;
    }
}

std::string text(const std::optional<core::Shape>& s) {
    return s ? core::to_string(*s) : std::string("an error");
}

void expect_same(const char* who, const std::optional<core::Shape>& got,
                 const std::optional<core::Shape>& model) {
    if (got != model)
        RC_FAIL(std::string(who) + " gives " + text(got) + ", the model " + text(model));
}

rc::Gen<ShapeCase> any_shapes(core::BroadcastRule rule) {
    return rc::gen::oneOf(compatible_shapes(rule), near_miss_shapes(rule), arbitrary_shapes(rule));
}

// For a valid pair: the plan's strides read the same input elements as the model's mapping.
void check_plan_offsets(const core::BroadcastPlan& plan, const Layout& layout) {
    for (std::int64_t i = 0; i < elements(layout.output); ++i) {
        std::int64_t a = 0, b = 0, rest = i;
        for (std::size_t d = plan.output.size(); d-- > 0;) {
            a += rest % plan.output[d] * plan.a_strides[d];
            b += rest % plan.output[d] * plan.b_strides[d];
            rest /= plan.output[d];
        }
        if (std::pair(a, b) != input_offsets(layout, i))
            RC_FAIL("core::make_plan maps output element " + std::to_string(i) + " to A[" +
                    std::to_string(a) + "], B[" + std::to_string(b) + "]; the model to A[" +
                    std::to_string(input_offsets(layout, i).first) + "], B[" +
                    std::to_string(input_offsets(layout, i).second) + "]");
    }
}

void check_shapes(const Combination& combination) {
    const Case c = *zero_valued_case(combination, any_shapes(combination.rule));
    const auto layout = model_layout(combination.rule, c.a.shape, c.b.shape, c.shapes.axis);
    const std::optional<core::Shape> model = layout ? std::optional(layout->output) : std::nullopt;
    const core::BroadcastSpec spec =
        core::resolve_attributes(*combination.op, c.attributes).broadcast;
    expect_same("core::broadcast_shape",
                inferred([&] { return core::broadcast_shape(c.a.shape, c.b.shape, spec); }), model);
    expect_same("core::make_plan",
                inferred([&] { return core::make_plan(c.a.shape, c.b.shape, spec).output; }),
                model);
    if (layout) check_plan_offsets(core::make_plan(c.a.shape, c.b.shape, spec), *layout);
    const core::OpVersion& op = *combination.op;
    expect_same("reference::run",
                inferred([&] { return reference::run(op, c.attributes, c.a, c.b).value.shape; }),
                model);
    expect_same("oracle::run",
                inferred([&] { return oracle::run(op, c.attributes, c.a, c.b).value.shape; }),
                model);
}

TEST_P(ShapeInference, MatchesModel) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] { check_shapes(combination); });
    EXPECT_TRUE(holds);
}

INSTANTIATE_TEST_SUITE_P(op, ShapeInference, ::testing::ValuesIn(all_combinations()),
                         CombinationName{});

}  // namespace
}  // namespace property_tests
