// Property c: for every triple, both reference::run and oracle::run reject, with a core::Error
// of the right kind, near-miss shapes (shape), element types the version lacks and boolean
// (element_type), mixed element types (element_type), and bad attributes (attribute).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <set>
#include <utility>
#include <vector>

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

using core::ElementType;
using core::ErrorKind;

class Rejection : public ::testing::TestWithParam<Combination> {};

// Empty when `call` throws core::Error of kind `expected`; otherwise what happened instead.
template <class F>
std::string rejection_problem(const char* who, ErrorKind expected, F&& call) {
    try {
        call();
        return std::string(who) + " accepted it";
    } catch (const core::Error& e) {
        if (e.kind() == expected) return "";
        return std::string(who) + " threw a " + core::name(e.kind()) + " error: " + e.what();
    }
}

// Both implementations must reject the call with an error of kind `expected`.
void expect_rejected(const Case& c, ErrorKind expected, const std::string& what) {
    const core::OpVersion& op = *c.combination.op;
    const std::string problems[] = {
        rejection_problem("reference::run", expected,
                          [&] { reference::run(op, c.attributes, c.a, c.b); }),
        rejection_problem("oracle::run", expected,
                          [&] { oracle::run(op, c.attributes, c.a, c.b); })};
    for (const std::string& p : problems)
        if (!p.empty())
            RC_FAIL(what + " (" + descriptor(c) + ") must be a " + core::name(expected) +
                    " error, but " + p);
}

// The case with inputs of other element types (zeros: the values do not matter here).
Case retyped(const Case& c, ElementType a, ElementType b) {
    Case out = c;
    out.a = core::Tensor::zeros(a, c.a.shape);
    out.b = core::Tensor::zeros(b, c.b.shape);
    return out;
}

// Types the version must reject: every type outside its list, and boolean always.
std::vector<ElementType> disallowed_types(const core::OpVersion& op) {
    std::vector<ElementType> out;
    for (const auto& info : core::kElementTypes)
        if (!op.allows(info.type) || info.type == ElementType::boolean) out.push_back(info.type);
    return out;
}

// Bad attributes: an unknown name, every attribute another version takes but this one lacks,
// and an out-of-range value for each attribute this version has.
std::vector<std::pair<std::string, std::string>> bad_attributes(const core::OpVersion& op) {
    std::vector<std::pair<std::string, std::string>> out = {{"no_such_attribute", "1"}};
    std::set<std::string_view> seen;
    for (const core::OpVersion& other : core::op_versions())
        for (const core::AttributeSpec& spec : other.attributes)
            if (!op.attribute(spec.name) && seen.insert(spec.name).second)
                out.emplace_back(spec.name, spec.default_value.value_or("1"));
    const std::pair<const char*, const char*> out_of_range[] = {{"broadcast", "2"},
                                                                {"auto_broadcast", "bogus"},
                                                                {"auto_broadcast_axis", "-2"},
                                                                {"m_pythondiv", "maybe"}};
    for (const auto& [name, value] : out_of_range)
        if (op.attribute(name)) out.emplace_back(name, value);
    return out;
}

TEST_P(Rejection, NearMissShapes) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] {
        const Case c = *zero_valued_case(combination, near_miss_shapes(combination.rule));
        RC_ASSERT(!model_layout(combination.rule, c.a.shape, c.b.shape, c.shapes.axis));
        expect_rejected(c, ErrorKind::shape, "incompatible shapes");
    });
    EXPECT_TRUE(holds);
}

TEST_P(Rejection, DisallowedTypes) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] {
        const Case c = *zero_valued_case(combination, compatible_shapes(combination.rule));
        for (ElementType t : disallowed_types(*combination.op))
            expect_rejected(retyped(c, t, t), ErrorKind::element_type, "a disallowed type");
    });
    EXPECT_TRUE(holds);
}

TEST_P(Rejection, MixedTypes) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] {
        const Case c = *zero_valued_case(combination, compatible_shapes(combination.rule));
        for (const auto& info : core::kElementTypes) {
            if (info.type == combination.type) continue;
            expect_rejected(retyped(c, combination.type, info.type), ErrorKind::element_type,
                            "mixed types");
            expect_rejected(retyped(c, info.type, combination.type), ErrorKind::element_type,
                            "mixed types");
        }
    });
    EXPECT_TRUE(holds);
}

TEST_P(Rejection, BadAttributes) {
    const Combination combination = GetParam();
    const ::testing::AssertionResult holds = check_property([&] {
        const Case c = *zero_valued_case(combination, compatible_shapes(combination.rule));
        for (const auto& [name, value] : bad_attributes(*combination.op)) {
            Case bad = c;
            bad.attributes[name] = value;
            expect_rejected(bad, ErrorKind::attribute, "attribute " + name + "=" + value);
        }
    });
    EXPECT_TRUE(holds);
}

INSTANTIATE_TEST_SUITE_P(op, Rejection, ::testing::ValuesIn(all_combinations()), CombinationName{});

}  // namespace
}  // namespace property_tests
