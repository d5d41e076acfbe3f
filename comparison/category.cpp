#include "comparison/category.hpp"

namespace comparison {
namespace {

// name() indexes the table by the enum's value: each row must sit at its category's index.
constexpr bool table_in_enum_order() {
    for (std::size_t i = 0; i < kCategoryNames.size(); ++i)
        if (static_cast<std::size_t>(kCategoryNames[i].category) != i) return false;
    return true;
}
static_assert(table_in_enum_order(), "kCategoryNames: a row is out of the enum's order");
static_assert(static_cast<std::size_t>(Category::rejection_reason) + 1 == kCategoryNames.size(),
              "kCategoryNames: a category has no row");

}  // namespace

std::optional<Category> parse_category(std::string_view name) {
    for (const CategoryName& row : kCategoryNames)
        if (row.name == name) return row.category;
    return std::nullopt;
}

}  // namespace comparison
