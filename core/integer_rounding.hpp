// Integer division's rounding rules (docs/SEMANTICS.md section 2) and what each one means: the
// one place that tells them apart, so that code elsewhere asks instead of comparing names.
#pragma once

#include <optional>
#include <string_view>

namespace core {

enum class IntegerRounding { truncate, floor };

// Every rule, in enum order: for code that enumerates them (spec cases, listings).
inline constexpr IntegerRounding kIntegerRoundings[] = {IntegerRounding::truncate,
                                                        IntegerRounding::floor};

// True when the rule rounds an inexact quotient toward -inf (Python's //); false when it
// rounds toward zero (C++'s /).
constexpr bool floors(IntegerRounding r) {
    switch (r) {
        case IntegerRounding::truncate:
            return false;
        case IntegerRounding::floor:
            return true;
    }
    __builtin_unreachable();
}

// The rule a floor/truncate mix-up gives: what a backend that ignores m_pythondiv computes.
constexpr IntegerRounding other_rounding(IntegerRounding r) {
    switch (r) {
        case IntegerRounding::truncate:
            return IntegerRounding::floor;
        case IntegerRounding::floor:
            return IntegerRounding::truncate;
    }
    __builtin_unreachable();
}

// floor when `floor` holds (m_pythondiv=true), else truncate.
constexpr IntegerRounding floor_if(bool floor) {
    return floor ? IntegerRounding::floor : IntegerRounding::truncate;
}

// "trunc", "floor": the rule's name in case ids and spec tables.
constexpr std::string_view name(IntegerRounding r) {
    switch (r) {
        case IntegerRounding::truncate:
            return "trunc";
        case IntegerRounding::floor:
            return "floor";
    }
    __builtin_unreachable();
}

// The rule `name` gives that name, if any.
constexpr std::optional<IntegerRounding> integer_rounding_named(std::string_view text) {
    for (IntegerRounding r : kIntegerRoundings)
        if (name(r) == text) return r;
    return std::nullopt;
}

}  // namespace core
