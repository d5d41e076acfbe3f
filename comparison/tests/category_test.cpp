// The category table: every name reads back to its category, and nothing else is a category.
#include "comparison/category.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using comparison::Category;

TEST(Category, EveryNameReadsBackToItsCategory) {
    for (const comparison::CategoryName& row : comparison::kCategoryNames) {
        EXPECT_EQ(comparison::name(row.category), row.name);
        EXPECT_EQ(comparison::parse_category(row.name), row.category) << row.name;
    }
}

TEST(Category, SectionElevensNamesSpelledByHand) {
    // Three spellings from backends/PROTOCOL.md section 11, typed here rather than taken from the
    // table, so that a renamed row fails (the docs test checks the whole list against section 11).
    EXPECT_EQ(comparison::parse_category("floor_vs_trunc"), Category::floor_vs_trunc);
    EXPECT_EQ(comparison::parse_category("rejection_reason"), Category::rejection_reason);
    EXPECT_EQ(comparison::name(Category::shape), "shape");
}

TEST(Category, CountsIterateByName) {
    // By name, as the string-keyed maps did (results messages and JUnit types keep their order),
    // not in the enum's order (shape, nan, value).
    const comparison::CategoryCounts counts{
        {Category::value, 1}, {Category::shape, 2}, {Category::nan, 3}, {Category::dtype, 4}};
    std::string order;
    for (const auto& [category, count] : counts)
        order += std::string(comparison::name(category)) + " ";
    EXPECT_EQ(order, "dtype nan shape value ");
}

TEST(Category, OtherTextIsNoCategory) {
    for (const char* text : {"", "Nan", "nan ", "floor-vs-trunc", "ulp", "passed"})
        EXPECT_EQ(comparison::parse_category(text), std::nullopt) << "'" << text << "'";
}

}  // namespace
