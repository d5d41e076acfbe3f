#include "core/element_text.hpp"

#include <bit>
#include <cfenv>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "core/error.hpp"

namespace core {
namespace {

[[noreturn]] void unreadable(ElementType t, std::string_view text, const std::string& why) {
    throw Error(ErrorKind::input,
                "'" + std::string(text) + "' is not a valid " + std::string(name(t)) + ": " + why);
}

template <class T>
bool parse_integer(ElementType type, std::string_view text, T& out) {
    if (text == "min") return out = std::numeric_limits<T>::min(), true;
    if (text == "max") return out = std::numeric_limits<T>::max(), true;
    bool negative = false;
    std::string_view digits = text;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
        negative = digits[0] == '-';
        digits.remove_prefix(1);
    }
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    unsigned long long magnitude = 0;
    const char* end = digits.data() + digits.size();
    auto [p, ec] = std::from_chars(digits.data(), end, magnitude, base);
    if (digits.empty() || p != end) unreadable(type, text, "expected an integer");
    if (ec == std::errc::result_out_of_range) unreadable(type, text, "out of range");
    using Limits = std::numeric_limits<T>;
    if (negative) {
        // -magnitude must be >= min, i.e. magnitude <= |min| (computed without overflow).
        const unsigned long long limit =
            Limits::is_signed ? static_cast<unsigned long long>(-(Limits::min() + 1)) + 1 : 0;
        if (magnitude > limit) unreadable(type, text, "out of range");
        out = magnitude == 0 ? T{0} : static_cast<T>(-static_cast<long long>(magnitude - 1) - 1);
    } else {
        if (magnitude > static_cast<unsigned long long>(Limits::max()))
            unreadable(type, text, "out of range");
        out = static_cast<T>(magnitude);
    }
    return true;
}

// Largest finite, smallest normal and smallest subnormal magnitudes of each float format.
struct FloatLimits {
    double max, min_normal, denorm_min;
};
FloatLimits float_limits(ElementType t) {
    switch (t) {
        case ElementType::f16:
            return {65504.0, 0x1p-14, 0x1p-24};
        case ElementType::bf16:
            return {0x1.FEp127, 0x1p-126, 0x1p-133};
        case ElementType::f32:
            return {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::denorm_min()};
        default:
            return {std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                    std::numeric_limits<double>::denorm_min()};
    }
}

std::optional<double> named_float(ElementType t, std::string_view text) {
    const bool negative = !text.empty() && text[0] == '-';
    const std::string_view word = negative ? text.substr(1) : text;
    const FloatLimits lim = float_limits(t);
    double v;
    if (word == "inf")
        v = std::numeric_limits<double>::infinity();
    else if (word == "nan")
        v = std::numeric_limits<double>::quiet_NaN();
    else if (word == "max")
        v = lim.max;
    else if (word == "lowest")
        v = -lim.max;
    else if (word == "min_normal")
        v = lim.min_normal;
    else if (word == "denorm_min")
        v = lim.denorm_min;
    else
        return std::nullopt;
    return negative ? -v : v;
}

// Decimal or hex-float text, rounded once into T (f32 and f64 parse directly into their type).
// Sets out_of_range when the text overflowed to inf or underflowed to 0 (so it was rounded).
template <class T>
T parse_float_text(ElementType type, std::string_view text, bool& out_of_range) {
    const bool negative = !text.empty() && text[0] == '-';
    const bool has_sign = !text.empty() && (text[0] == '-' || text[0] == '+');
    const std::string_view unsigned_text = has_sign ? text.substr(1) : text;
    std::string_view magnitude = unsigned_text;
    auto format = std::chars_format::general;
    if (magnitude.size() > 2 && magnitude[0] == '0' &&
        (magnitude[1] == 'x' || magnitude[1] == 'X')) {
        format = std::chars_format::hex;
        magnitude.remove_prefix(2);
    }
    T value{};
    const char* end = magnitude.data() + magnitude.size();
    auto [p, ec] = std::from_chars(magnitude.data(), end, value, format);
    // from_chars takes a '-' of its own: "--1" or "-0x-1p0" would read as positive.
    const bool second_sign = !magnitude.empty() && (magnitude[0] == '-' || magnitude[0] == '+');
    if (magnitude.empty() || second_sign || p != end ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
        unreadable(type, text, "expected a number, inf, nan or a named limit");
    out_of_range = ec == std::errc::result_out_of_range;
    if (out_of_range) {
        // from_chars leaves the value unset: decide between overflow and underflow ourselves.
        // strtod gets the 0x prefix too, or it would read "1p2000" as 1.
        const double approx = std::strtod(std::string(unsigned_text).c_str(), nullptr);
        value = static_cast<T>(approx > 1.0 ? std::numeric_limits<T>::infinity() : T{0});
    }
    return negative ? -value : value;
}

template <class T>
T narrow_to(double x) {
    if constexpr (std::is_same_v<T, Half>)
        return half_from_double(x);
    else
        return bfloat16_from_double(x);
}

// Text -> f64 -> f16/bf16 rounds twice. When the f64 value d lands exactly on a tie of the 16-bit
// format but the text is not exactly d (1.00048828125000000001 for f16), the second rounding must
// go to the side of the exact value, not to even. glibc's strtod honours the rounding mode, so
// rounding down and up tells on which side of d the text lies. Returns the value to narrow.
template <class T>
double undo_double_rounding_tie(double d, std::string_view text) {
    if (d == 0 || !std::isfinite(d)) return d;
    const double below = std::nextafter(d, -std::numeric_limits<double>::infinity());
    const double above = std::nextafter(d, std::numeric_limits<double>::infinity());
    if (narrow_to<T>(below) == narrow_to<T>(above)) return d;  // d is no tie
    const std::string s(text);
    const int mode = std::fegetround();
    std::fesetround(FE_DOWNWARD);
    const double down = std::strtod(s.c_str(), nullptr);
    std::fesetround(FE_UPWARD);
    const double up = std::strtod(s.c_str(), nullptr);
    std::fesetround(mode);
    if (down == up) return d;  // the text is exactly the tie: ties-to-even is right
    return down == d ? above : below;
}

template <class T>
bool store_float(Tensor& t, std::int64_t i, std::string_view text) {
    const auto named = named_float(t.type, text);
    bool out_of_range = false;
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        const double d = named ? *named : parse_float_text<double>(t.type, text, out_of_range);
        const T v = narrow_to<T>(named ? d : undo_double_rounding_tie<T>(d, text));
        t.values<T>()[i] = v;
        const double back = to_float(v);
        return !out_of_range && (std::isnan(d) || back == d);
    } else {
        const T v =
            named ? static_cast<T>(*named) : parse_float_text<T>(t.type, text, out_of_range);
        t.values<T>()[i] = v;
        if (named || out_of_range) return !out_of_range;
        // f32: exact when the text's f64 value is the same number (always so for hex-floats
        // that fit); f64 cannot be checked further here.
        if constexpr (std::is_same_v<T, float>) {
            bool wide_out_of_range = false;
            return static_cast<double>(v) ==
                   parse_float_text<double>(t.type, text, wide_out_of_range);
        }
        return true;
    }
}

template <class T>
double as_double(T v) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
        return to_float(v);
    else
        return static_cast<double>(v);
}

}  // namespace

bool parse_element(Tensor& t, std::int64_t i, std::string_view text) {
    return dispatch(t.type, [&](auto tag) -> bool {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            if (text != "true" && text != "false" && text != "0" && text != "1")
                unreadable(t.type, text, "expected true or false");
            t.values<bool>()[i] = text == "true" || text == "1";
            return true;
        } else if constexpr (std::is_integral_v<T>) {
            return parse_integer(t.type, text, t.values<T>()[i]);
        } else {
            return store_float<T>(t, i, text);
        }
    });
}

std::string format_element(const Tensor& t, std::int64_t i) {
    return dispatch(t.type, [&](auto tag) -> std::string {
        using T = typename decltype(tag)::type;
        const T v = t.values<T>()[i];
        if constexpr (std::is_same_v<T, bool>) {
            return v ? "true" : "false";
        } else if constexpr (std::is_integral_v<T>) {
            return std::to_string(v);
        } else {
            const double d = as_double(v);
            if (std::isnan(d)) return std::signbit(d) ? "-nan" : "nan";
            if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
            if (d == 0) return std::signbit(d) ? "-0" : "0";
            char buf[64];
            // f16/bf16 widen exactly to f32, and the shortest f32 text reads back to the same bits.
            using Shortest = std::conditional_t<std::is_same_v<T, double>, double, float>;
            auto [p, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<Shortest>(d));
            return std::string(buf, p);
        }
    });
}

double element_as_double(const Tensor& t, std::int64_t i) {
    return dispatch(t.type, [&](auto tag) -> double {
        using T = typename decltype(tag)::type;
        return as_double(t.values<T>()[i]);
    });
}

std::uint64_t element_bits(const Tensor& t, std::int64_t i) {
    const std::size_t size = byte_size(t.type);
    std::uint64_t bits = 0;
    std::memcpy(&bits, t.bytes.data() + static_cast<std::size_t>(i) * size, size);
    return bits;
}

}  // namespace core
