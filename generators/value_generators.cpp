#include "generators/value_generators.hpp"

#include <cstring>
#include <stdexcept>

#include "core/element_text.hpp"

namespace generators {
namespace {

using core::ElementType;

// Field masks and exponent range of a float format, derived from its two parameters.
struct FloatLayout {
    int m;     // mantissa bits
    int bias;  // exponent bias
    int emin;  // exponent of the smallest normal
    int emax;  // exponent of the largest finite value
    std::uint64_t sign;
    std::uint64_t exponent_mask;
    std::uint64_t mantissa_mask;
};

FloatLayout layout(FloatFormat f) {
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    const std::uint64_t mantissa_mask = (std::uint64_t{1} << f.mantissa_bits) - 1;
    const std::uint64_t exponent_mask = ((std::uint64_t{1} << f.exponent_bits) - 1)
                                        << f.mantissa_bits;
    return {f.mantissa_bits,
            bias,
            1 - bias,
            bias,
            std::uint64_t{1} << (f.exponent_bits + f.mantissa_bits),
            exponent_mask,
            mantissa_mask};
}

// 2^e, normal or subnormal; e must lie in [emin - m, emax].
std::uint64_t pow2_bits(const FloatLayout& l, int e) {
    if (e >= l.emin) return static_cast<std::uint64_t>(e + l.bias) << l.m;
    return std::uint64_t{1} << (e - (l.emin - l.m));
}

// Exponents whose powers of two sit at or next to the overflow and underflow thresholds, alone
// or multiplied / divided by each other: 2^e * 2^e overflows exactly when 2e > emax, and the
// product of the two halves of (emin - m - 1) lands on half the smallest subnormal (a tie).
std::vector<int> threshold_exponents(const FloatLayout& l) {
    const int sub = l.emin - l.m;  // exponent of the smallest subnormal
    const int half = (l.emax + 1) / 2;
    const int below = sub - 1;  // half the smallest subnormal: rounds to zero on a tie
    return {0,          1,   -1,      l.emax,    l.emax - 1,        half,      half - 1, l.emin,
            l.emin - 1, sub, sub + 1, below / 2, below - below / 2, l.emin / 2};
}

// Positive non-NaN magnitudes: zero, powers of two, inf, max, the subnormal / normal seams, and
// values next to 1 (1 + ulp, 1 - ulp/2, 1.5, 3) whose products round.
std::vector<std::uint64_t> float_magnitudes(const FloatLayout& l) {
    const std::uint64_t one = pow2_bits(l, 0);
    const std::uint64_t top_fraction_bit = std::uint64_t{1} << (l.m - 1);  // 1 -> 1.5
    std::vector<std::uint64_t> out = {0, one};
    for (int e : threshold_exponents(l))
        out.push_back(pow2_bits(l, e));
    out.insert(out.end(), {l.exponent_mask, l.exponent_mask - 1, l.mantissa_mask, one + 1, one - 1,
                           one | top_fraction_bit, pow2_bits(l, 1) | top_fraction_bit});
    return out;
}

// Quiet NaNs with and without payload, signalling NaNs with the smallest and largest payload.
std::vector<std::uint64_t> float_nans(const FloatLayout& l) {
    const std::uint64_t quiet = l.exponent_mask | (std::uint64_t{1} << (l.m - 1));
    const std::uint64_t signalling_max = l.exponent_mask | ((std::uint64_t{1} << (l.m - 1)) - 1);
    return {quiet,          quiet | 1,      l.exponent_mask | l.mantissa_mask, l.exponent_mask | 1,
            signalling_max, l.sign | quiet, l.sign | l.exponent_mask | 1};
}

std::vector<std::uint64_t> float_edges(FloatFormat f) {
    const FloatLayout l = layout(f);
    std::vector<std::uint64_t> out;
    for (std::uint64_t v : float_magnitudes(l)) {
        out.push_back(v);
        out.push_back(v | l.sign);
    }
    for (std::uint64_t v : float_nans(l))
        out.push_back(v);
    return out;
}

// floor(sqrt(2^n - 1)), the largest value whose square fits in n magnitude bits (bisection).
__int128 sqrt_of_max(int magnitude_bits) {
    const __int128 max = (__int128{1} << magnitude_bits) - 1;
    __int128 lo = 0, hi = __int128{1} << ((magnitude_bits + 1) / 2);
    while (hi - lo > 1) {
        const __int128 mid = (lo + hi) / 2;
        (mid * mid <= max ? lo : hi) = mid;
    }
    return lo;
}

// Signed edges, small ones first (shrinking moves toward the front of the list): 0, ±1, ±2, ±3,
// ±7, the extremes, and values whose products just fit or just overflow: s = floor(sqrt(max))
// squared fits and (s+1)^2 does not; -2^(n/2) * 2^(n/2-1) is exactly MIN, while
// 2^(n/2) * 2^(n/2-1) overflows to MIN.
std::vector<__int128> signed_edges(int n) {
    const __int128 max = (__int128{1} << (n - 1)) - 1, min = -max - 1;
    const __int128 s = sqrt_of_max(n - 1);
    const __int128 h = __int128{1} << (n / 2);
    std::vector<__int128> out = {0, 1, -1, 2, -2, 3, -3, 7, -7, min, max, min + 1, max - 1};
    for (__int128 v : {s, s + 1, h, h / 2}) {
        out.push_back(v);
        out.push_back(-v);
    }
    return out;
}

// Unsigned edges: extremes, the sign-bit boundary, and 2^(n/2) - 1 (square fits) / 2^(n/2)
// (square wraps to 0) / 2^(n/2) + 1.
std::vector<__int128> unsigned_edges(int n) {
    const __int128 max = (__int128{1} << n) - 1;
    const __int128 h = __int128{1} << (n / 2);
    const __int128 top = __int128{1} << (n - 1);
    return {0, 1, 2, 3, 7, max, max - 1, top, top - 1, h - 1, h, h + 1};
}

std::uint64_t low_bits(__int128 v, int width) {
    const auto u = static_cast<unsigned __int128>(v);
    const unsigned __int128 mask = (static_cast<unsigned __int128>(1) << width) - 1;
    return static_cast<std::uint64_t>(u & mask);
}

std::vector<std::uint64_t> integer_edges(ElementType t) {
    const int n = bit_width(t);
    const bool is_signed = core::info(t).kind == core::Kind::signed_integer;
    std::vector<std::uint64_t> out;
    for (__int128 v : is_signed ? signed_edges(n) : unsigned_edges(n))
        out.push_back(low_bits(v, n));
    return out;
}

// Like gen::elementOf, but shrinking toward the front of `values` (elementOf never shrinks).
rc::Gen<std::uint64_t> shrinking_element_of(std::vector<std::uint64_t> values) {
    const std::size_t n = values.size();
    return rc::gen::map(rc::gen::inRange<std::size_t>(0, n),
                        [values = std::move(values)](std::size_t i) { return values[i]; });
}

rc::Gen<std::uint64_t> uniform_bits(int width) {
    if (width < 64) return rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << width);
    const auto half = rc::gen::inRange<std::uint64_t>(0, std::uint64_t{1} << 32);
    return rc::gen::map(rc::gen::pair(half, half),
                        [](const auto& p) { return (p.first << 32) | p.second; });
}

// Integers in [-16, 16] (unsigned: [0, 32]): where floor and truncation visibly differ.
rc::Gen<std::uint64_t> small_integer(ElementType t) {
    const int n = bit_width(t);
    const bool is_signed = core::info(t).kind == core::Kind::signed_integer;
    return rc::gen::map(rc::gen::inRange<int>(is_signed ? -16 : 0, is_signed ? 17 : 33),
                        [n](int v) { return low_bits(v, n); });
}

// Floats of magnitude in [2^-4, 2^5) with random fraction bits: ordinary values whose products
// and quotients need rounding (where truncation and round-to-nearest-even differ).
rc::Gen<std::uint64_t> moderate_float(FloatFormat f) {
    const FloatLayout l = layout(f);
    return rc::gen::map(
        rc::gen::tuple(rc::gen::arbitrary<bool>(), rc::gen::inRange(-4, 5), uniform_bits(l.m)),
        [l](const auto& v) {
            const auto& [negative, e, fraction] = v;
            return (negative ? l.sign : 0) | pow2_bits(l, e) | fraction;
        });
}

// Element i's encoding, written through the unsigned type of its width (host byte order).
template <class U>
void store_as(core::Tensor& t, std::int64_t i, std::uint64_t v) {
    const auto x = static_cast<U>(v);
    std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * sizeof(U), &x, sizeof(U));
}

void store_element(core::Tensor& t, std::int64_t i, std::uint64_t v) {
    switch (core::byte_size(t.type)) {
        case 1:
            return store_as<std::uint8_t>(t, i, v);
        case 2:
            return store_as<std::uint16_t>(t, i, v);
        case 4:
            return store_as<std::uint32_t>(t, i, v);
        default:
            return store_as<std::uint64_t>(t, i, v);
    }
}

}  // namespace

std::optional<FloatFormat> float_format(ElementType t) {
    switch (t) {
        case ElementType::f16:
            return FloatFormat{5, 10};
        case ElementType::bf16:
            return FloatFormat{8, 7};
        case ElementType::f32:
            return FloatFormat{8, 23};
        case ElementType::f64:
            return FloatFormat{11, 52};
        default:
            return std::nullopt;
    }
}

int bit_width(ElementType t) {
    return static_cast<int>(core::byte_size(t) * 8);
}

bool is_nan_bits(ElementType t, std::uint64_t bits) {
    const auto f = float_format(t);
    if (!f) return false;
    const FloatLayout l = layout(*f);
    return (bits & l.exponent_mask) == l.exponent_mask && (bits & l.mantissa_mask) != 0;
}

std::vector<std::uint64_t> edge_bits(ElementType t) {
    if (t == ElementType::boolean) return {0, 1};
    if (const auto f = float_format(t)) return float_edges(*f);
    return integer_edges(t);
}

rc::Gen<std::uint64_t> element_bits(ElementType t) {
    if (t == ElementType::boolean) return shrinking_element_of(edge_bits(t));
    const auto f = float_format(t);
    const rc::Gen<std::uint64_t> ordinary = f ? moderate_float(*f) : small_integer(t);
    const rc::Gen<std::uint64_t> edges = shrinking_element_of(edge_bits(t));
    const rc::Gen<std::uint64_t> uniform = uniform_bits(bit_width(t));
    // 40% edges, 30% ordinary, 30% uniform bits. The class is an inRange pick so that shrinking
    // moves toward edge values (gen::weightedOneOf never shrinks its choice). Fixed size:
    // inRange would otherwise narrow its range at small test sizes.
    return rc::gen::resize(rc::kNominalSize, rc::gen::mapcat(rc::gen::inRange(0, 10), [=](int k) {
                               return k < 4 ? edges : k < 7 ? ordinary : uniform;
                           }));
}

core::Tensor tensor_from_bits(ElementType t, const core::Shape& shape,
                              const std::vector<std::uint64_t>& bits) {
    core::Tensor out = core::Tensor::zeros(t, shape);
    if (static_cast<std::int64_t>(bits.size()) != out.size())
        throw std::logic_error("tensor_from_bits: element count does not match the shape");
    for (std::size_t i = 0; i < bits.size(); ++i)
        store_element(out, static_cast<std::int64_t>(i), bits[i]);
    return out;
}

rc::Gen<std::vector<std::uint64_t>> element_pool(ElementType t) {
    return rc::gen::resize(
        rc::kNominalSize,
        rc::gen::nonEmpty(rc::gen::container<std::vector<std::uint64_t>>(element_bits(t))));
}

core::Tensor tensor_from_pool(ElementType t, const core::Shape& shape,
                              const std::vector<std::uint64_t>& pool) {
    core::Tensor out = core::Tensor::zeros(t, shape);
    for (std::int64_t i = 0; i < out.size(); ++i)
        store_element(out, i, pool[static_cast<std::size_t>(i) % pool.size()]);
    return out;
}

__int128 integer_value(const core::Tensor& t, std::int64_t i) {
    const std::uint64_t bits = core::element_bits(t, i);
    const int n = bit_width(t.type);
    const bool negative =
        core::info(t.type).kind == core::Kind::signed_integer && ((bits >> (n - 1)) & 1) != 0;
    return negative ? static_cast<__int128>(bits) - (__int128{1} << n) : bits;
}

}  // namespace generators
