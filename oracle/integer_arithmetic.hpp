// Exact integer multiply and divide in cpp_int, then reduced modulo 2^N into the N-bit type
// (the wrap convention of docs/SEMANTICS.md section 2), recording overflow and undefined
// quotients.
#pragma once

#include <cstdint>

#include <boost/multiprecision/cpp_int.hpp>

#include "core/element_type.hpp"
#include "core/op_config.hpp"

namespace oracle {

using boost::multiprecision::cpp_int;

struct IntegerOutcome {
    cpp_int exact;               // the exact product or rounded quotient (0 when undefined)
    std::uint64_t wrapped_bits;  // exact mod 2^N, as the type's N-bit encoding, zero-extended
    bool overflow;               // exact lies outside the type's range
    bool undefined;              // division by zero: the spec leaves the value undefined
};

// The value of an N-bit encoding of type t (two's complement for signed types).
cpp_int integer_value(core::ElementType t, std::uint64_t bits);

// The N-bit encoding of `value` mod 2^N, zero-extended; `overflow` says whether it was out of
// range.
std::uint64_t wrap_to_type(core::ElementType t, const cpp_int& value, bool& overflow);

IntegerOutcome multiply_integer(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits);

// Truncation rounds the exact quotient toward zero, floor toward -inf (docs/SEMANTICS.md
// section 2).
IntegerOutcome divide_integer(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits,
                              core::IntegerRounding rounding);

}  // namespace oracle
