// Independent on purpose: the oracle reads each rounding rule in exact cpp_int arithmetic and
// asks core nothing beyond the enum, so that it can check the reference and the rest.
#include "oracle/integer_arithmetic.hpp"

#include <stdexcept>
#include <string>

namespace oracle {
namespace {

unsigned width_of(core::ElementType t) {
    if (!core::is_integer(t))
        throw std::logic_error("oracle: " + std::string(core::name(t)) + " is not an integer type");
    return static_cast<unsigned>(core::byte_size(t) * 8);
}

bool is_signed(core::ElementType t) {
    return core::info(t).kind == core::Kind::signed_integer;
}

// Only the low N bits of an operand are its encoding.
std::uint64_t low_bits(std::uint64_t bits, unsigned width) {
    return width == 64 ? bits : bits & ((std::uint64_t{1} << width) - 1);
}

// 2^n, built by setting one bit (GCC 12 warns falsely inside Boost on cpp_int(1) << n).
cpp_int power_of_two(unsigned n) {
    cpp_int x = 0;
    bit_set(x, n);
    return x;
}

}  // namespace

cpp_int integer_value(core::ElementType t, std::uint64_t bits) {
    const unsigned n = width_of(t);
    cpp_int v = low_bits(bits, n);
    // Two's complement: an encoding with the top bit set stands for bits - 2^N.
    if (is_signed(t) && bit_test(v, n - 1)) v -= power_of_two(n);
    return v;
}

std::uint64_t wrap_to_type(core::ElementType t, const cpp_int& value, bool& overflow) {
    const unsigned n = width_of(t);
    const cpp_int modulus = power_of_two(n);
    cpp_int r = value % modulus;  // cpp_int's % takes the dividend's sign
    if (r < 0) r += modulus;
    const auto bits = static_cast<std::uint64_t>(r);
    // Reduction mod 2^N is a bijection on the type's range: the value fits iff it survives.
    overflow = integer_value(t, bits) != value;
    return bits;
}

IntegerOutcome multiply_integer(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits) {
    IntegerOutcome out{integer_value(t, a_bits) * integer_value(t, b_bits), 0, false, false};
    out.wrapped_bits = wrap_to_type(t, out.exact, out.overflow);
    return out;
}

IntegerOutcome divide_integer(core::ElementType t, std::uint64_t a_bits, std::uint64_t b_bits,
                              core::IntegerRounding rounding) {
    const cpp_int a = integer_value(t, a_bits);
    const cpp_int b = integer_value(t, b_bits);
    if (b == 0) return {0, 0, false, true};  // "The result of division by zero is undefined"
    cpp_int q, r;
    boost::multiprecision::divide_qr(a, b, q, r);  // q truncated toward zero, a = q b + r
    // Floor differs from truncation when the exact quotient is negative and not an integer:
    // then the remainder is nonzero and its sign (that of a) differs from b's.
    if (rounding == core::IntegerRounding::floor && r != 0 && ((r < 0) != (b < 0))) --q;
    IntegerOutcome out{q, 0, false, false};
    out.wrapped_bits = wrap_to_type(t, out.exact, out.overflow);
    return out;
}

}  // namespace oracle
