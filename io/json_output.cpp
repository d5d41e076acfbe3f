#include "io/json_output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "core/element_text.hpp"
#include "io/atomic_file.hpp"

namespace io {
namespace {

std::vector<std::int64_t> sorted_undefined(const core::Tensor& t,
                                           std::vector<std::int64_t> undefined) {
    for (const std::int64_t i : undefined)
        if (i < 0 || i >= t.size())
            throw std::out_of_range("tensor_to_json: undefined index " + std::to_string(i) +
                                    " outside a tensor of " + std::to_string(t.size()) +
                                    " elements");
    std::sort(undefined.begin(), undefined.end());
    undefined.erase(std::unique(undefined.begin(), undefined.end()), undefined.end());
    return undefined;
}

// JSON has no NaN, infinity or negative zero; those become the strings format_element spells.
nlohmann::json float_value(const core::Tensor& t, std::int64_t i) {
    const double d = core::element_as_double(t, i);
    if (std::isfinite(d) && !(d == 0 && std::signbit(d))) return d;
    return core::format_element(t, i);
}

nlohmann::json element_value(const core::Tensor& t, std::int64_t i) {
    return core::dispatch(t.type, [&](auto tag) -> nlohmann::json {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T>) {
            // Widened explicitly so that i8/u8 can never be taken for characters.
            const T v = t.values<T>()[static_cast<std::size_t>(i)];
            if constexpr (std::is_same_v<T, bool>)
                return v;
            else if constexpr (std::is_signed_v<T>)
                return static_cast<std::int64_t>(v);
            else
                return static_cast<std::uint64_t>(v);
        } else {
            return float_value(t, i);
        }
    });
}

std::string hex_bits(std::uint64_t bits, std::size_t digits) {
    constexpr char kHex[] = "0123456789abcdef";
    std::string s = "0x" + std::string(digits, '0');
    for (std::size_t k = 0; k < digits; ++k)
        s[s.size() - 1 - k] = kHex[(bits >> (4 * k)) & 0xf];
    return s;
}

}  // namespace

nlohmann::json tensor_to_json(const core::Tensor& t, const std::vector<std::int64_t>& undefined) {
    const std::vector<std::int64_t> marked = sorted_undefined(t, undefined);
    const bool floating = core::is_floating(t.type);
    const std::size_t digits = 2 * core::byte_size(t.type);
    nlohmann::json values = nlohmann::json::array();
    nlohmann::json bits = nlohmann::json::array();
    auto next_marked = marked.begin();
    for (std::int64_t i = 0; i < t.size(); ++i) {
        const bool is_undefined = next_marked != marked.end() && *next_marked == i;
        if (is_undefined) ++next_marked;
        values.push_back(is_undefined ? nlohmann::json() : element_value(t, i));
        if (floating)
            bits.push_back(is_undefined
                               ? nlohmann::json()
                               : nlohmann::json(hex_bits(core::element_bits(t, i), digits)));
    }
    nlohmann::json out = {{"dtype", std::string(core::name(t.type))},
                          {"shape", t.shape},
                          {"values", std::move(values)},
                          {"undefined", marked}};
    if (floating) out["bits"] = std::move(bits);
    return out;
}

void write_text_file(const std::string& path, const std::string& contents) {
    const std::array<std::span<const std::byte>, 1> pieces{std::as_bytes(std::span(contents))};
    write_file_atomically(path, pieces);
}

}  // namespace io
