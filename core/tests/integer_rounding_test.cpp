// The rounding rules' meaning, against docs/SEMANTICS.md section 2: truncation rounds toward
// zero, floor toward -inf; m_pythondiv=true selects floor.
#include "core/integer_rounding.hpp"

#include <gtest/gtest.h>

namespace core {
namespace {

TEST(IntegerRounding, FloorsOnlyForFloor) {
    EXPECT_FALSE(floors(IntegerRounding::truncate));
    EXPECT_TRUE(floors(IntegerRounding::floor));
}

TEST(IntegerRounding, OtherRoundingSwapsTheTwo) {
    EXPECT_EQ(other_rounding(IntegerRounding::truncate), IntegerRounding::floor);
    EXPECT_EQ(other_rounding(IntegerRounding::floor), IntegerRounding::truncate);
}

TEST(IntegerRounding, FloorIfFollowsPythonDiv) {
    EXPECT_EQ(floor_if(true), IntegerRounding::floor);
    EXPECT_EQ(floor_if(false), IntegerRounding::truncate);
}

TEST(IntegerRounding, NamesAreTheCaseIdSpellingAndReadBack) {
    EXPECT_EQ(name(IntegerRounding::truncate), "trunc");
    EXPECT_EQ(name(IntegerRounding::floor), "floor");
    for (IntegerRounding r : kIntegerRoundings)
        EXPECT_EQ(integer_rounding_named(name(r)), r);
    EXPECT_EQ(integer_rounding_named("truncate"), std::nullopt);
    EXPECT_EQ(integer_rounding_named(""), std::nullopt);
}

}  // namespace
}  // namespace core
