// The mismatch categories of a FAILED verdict (backends/PROTOCOL.md section 11) and the one table
// of their names: results.jsonl, reports and messages spell a category only through it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

namespace comparison {

// In section 11's order, which is the comparison's checking order: the header (shape, type),
// then each element's categories, then the rejection reason of an invalid case, which stays last
// (category.cpp checks the table's size against it).
enum class Category : std::uint8_t {
    shape,
    dtype,
    nan,
    signed_zero,
    subnormal_flush,
    overflow,
    rounding,
    integer_saturation,
    floor_vs_trunc,
    value,
    rejection_reason,
};

struct CategoryName {
    Category category;
    std::string_view name;
};

// The one table of names, in the enum's order. What each means: PROTOCOL.md section 11 (test
// docs.categories checks that every name here is documented there and that documents name no
// other). Adding a category: docs/CONTRIBUTING.md, "How to add a comparison category".
inline constexpr std::array<CategoryName, 11> kCategoryNames{{
    {Category::shape, "shape"},
    {Category::dtype, "dtype"},
    {Category::nan, "nan"},
    {Category::signed_zero, "signed_zero"},
    {Category::subnormal_flush, "subnormal_flush"},
    {Category::overflow, "overflow"},
    {Category::rounding, "rounding"},
    {Category::integer_saturation, "integer_saturation"},
    {Category::floor_vs_trunc, "floor_vs_trunc"},
    {Category::value, "value"},
    {Category::rejection_reason, "rejection_reason"},
}};

constexpr std::string_view name(Category c) {
    return kCategoryNames[static_cast<std::size_t>(c)].name;
}

// Orders categories by name, as the maps keyed by the names did before the enum: messages, JUnit
// failure types and triage's lists keep their order, and results.jsonl its bytes.
struct NameOrder {
    constexpr bool operator()(Category a, Category b) const { return name(a) < name(b); }
};

// Mismatching elements per category (a rejection_reason counts 1), iterated by name.
using CategoryCounts = std::map<Category, std::int64_t, NameOrder>;

// nullopt for a name that is not in the table.
std::optional<Category> parse_category(std::string_view name);

}  // namespace comparison
