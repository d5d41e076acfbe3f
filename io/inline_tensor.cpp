#include "io/inline_tensor.hpp"

#include <algorithm>
#include <charconv>
#include <new>
#include <string>
#include <vector>

#include "core/element_text.hpp"
#include "core/error.hpp"
#include "io/npy_file.hpp"

namespace io {
namespace {

[[noreturn]] void bad_inline(std::string_view text, const std::string& why) {
    throw core::Error(core::ErrorKind::input, "inline tensor '" + std::string(text) + "': " + why);
}

std::string_view trim(std::string_view s) {
    const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string counted(std::size_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

struct InlineParts {
    std::optional<std::string_view> dtype;
    std::string_view shape;
    std::string_view values;
};

// No value or dtype spelling contains ':', so the colons alone delimit the parts.
InlineParts split_parts(std::string_view text) {
    const auto colons = std::count(text.begin(), text.end(), ':');
    if (colons != 1 && colons != 2)
        bad_inline(text, "expected [DTYPE:]SHAPE:VALUES, e.g. 'f32:2x2:1,2,3,4'");
    const std::size_t first = text.find(':');
    if (colons == 1) return {std::nullopt, text.substr(0, first), text.substr(first + 1)};
    const std::size_t second = text.find(':', first + 1);
    return {text.substr(0, first), text.substr(first + 1, second - first - 1),
            text.substr(second + 1)};
}

core::ElementType resolve_dtype(std::string_view text, std::optional<std::string_view> spelled,
                                std::optional<core::ElementType> default_dtype) {
    if (!spelled) {
        if (!default_dtype)
            bad_inline(text,
                       "no dtype given; write it first, as in 'f32:" + std::string(text) + "'");
        return *default_dtype;
    }
    const std::string_view word = trim(*spelled);
    const auto parsed = core::parse_element_type(word);
    if (!parsed) bad_inline(text, "unknown dtype '" + std::string(word) + "'");
    if (default_dtype && *default_dtype != *parsed)
        bad_inline(text, "dtype " + std::string(core::name(*parsed)) +
                             " conflicts with the requested dtype " +
                             std::string(core::name(*default_dtype)));
    return *parsed;
}

std::int64_t parse_dimension(std::string_view text, std::string_view dim) {
    // from_chars would accept a '-', and a negative size is never meant.
    if (dim.empty() || dim[0] < '0' || dim[0] > '9')
        bad_inline(text, "bad dimension '" + std::string(dim) + "' in the shape");
    std::int64_t value = 0;
    const char* end = dim.data() + dim.size();
    const auto [p, ec] = std::from_chars(dim.data(), end, value);
    if (p != end) bad_inline(text, "bad dimension '" + std::string(dim) + "' in the shape");
    if (ec != std::errc()) bad_inline(text, "dimension '" + std::string(dim) + "' is too large");
    return value;
}

core::Shape parse_shape(std::string_view text, std::string_view spelled) {
    spelled = trim(spelled);
    core::Shape shape;
    if (spelled.empty()) return shape;
    while (true) {
        const std::size_t x = spelled.find('x');
        shape.push_back(parse_dimension(text, trim(spelled.substr(0, x))));
        if (x == std::string_view::npos) break;
        spelled.remove_prefix(x + 1);
    }
    try {
        core::element_count(shape);  // rank limit and overflow
    } catch (const core::Error& e) {
        bad_inline(text, e.what());
    }
    return shape;
}

std::vector<std::string_view> split_values(std::string_view text, std::string_view spelled) {
    spelled = trim(spelled);
    const bool open = !spelled.empty() && spelled.front() == '[';
    const bool close = !spelled.empty() && spelled.back() == ']';
    if (open != close) bad_inline(text, "unbalanced brackets around the values");
    if (open) spelled = trim(spelled.substr(1, spelled.size() - 2));
    std::vector<std::string_view> values;
    if (spelled.empty()) return values;
    while (true) {
        const std::size_t comma = spelled.find(',');
        const std::string_view value = trim(spelled.substr(0, comma));
        if (value.empty()) bad_inline(text, "value " + std::to_string(values.size()) + " is empty");
        if (value.find_first_of("[]") != std::string_view::npos)
            bad_inline(text, "nested brackets are not supported; list the values flat, row-major");
        values.push_back(value);
        if (comma == std::string_view::npos) break;
        spelled.remove_prefix(comma + 1);
    }
    return values;
}

void parse_value(std::string_view text, core::Tensor& t, std::int64_t i, std::string_view value) {
    try {
        core::parse_element(t, i, value);
    } catch (const core::Error& e) {
        bad_inline(text, "value " + std::to_string(i) + ": " + e.what());
    }
}

// The one value is parsed even when the shape has no elements, so a typo is still reported.
core::Tensor filled(std::string_view text, core::ElementType type, core::Shape shape,
                    std::string_view value) {
    core::Tensor one = core::Tensor::zeros(type, {});
    parse_value(text, one, 0, value);
    if (core::element_count(shape) > kMaxFilledElements)
        bad_inline(text, "one value fills at most " + std::to_string(kMaxFilledElements) +
                             " elements; give larger tensors as .npy files");
    core::Tensor t = core::Tensor::zeros(type, std::move(shape));
    for (std::size_t at = 0; at < t.bytes.size(); at += one.bytes.size())
        std::copy(one.bytes.begin(), one.bytes.end(),
                  t.bytes.begin() + static_cast<std::ptrdiff_t>(at));
    return t;
}

}  // namespace

core::Tensor parse_inline_tensor(std::string_view text,
                                 std::optional<core::ElementType> default_dtype) {
    const InlineParts parts = split_parts(text);
    const core::ElementType type = resolve_dtype(text, parts.dtype, default_dtype);
    core::Shape shape = parse_shape(text, parts.shape);
    const std::vector<std::string_view> values = split_values(text, parts.values);
    if (values.size() == 1) return filled(text, type, std::move(shape), values[0]);
    const auto count = static_cast<std::size_t>(core::element_count(shape));
    if (values.size() != count)
        bad_inline(text, "shape " + core::to_string(shape) + " needs " + counted(count, "value") +
                             ", got " + std::to_string(values.size()));
    // Small: there is one value in the text per element.
    core::Tensor t = core::Tensor::zeros(type, std::move(shape));
    for (std::size_t i = 0; i < count; ++i)
        parse_value(text, t, static_cast<std::int64_t>(i), values[i]);
    return t;
}

core::Tensor load_input(std::string_view argument, std::optional<core::ElementType> dtype) {
    if (argument.ends_with(".npy")) return read_npy(std::string(argument), dtype);
    if (argument.find(':') == std::string_view::npos)
        throw core::Error(core::ErrorKind::input,
                          "'" + std::string(argument) +
                              "' is neither an .npy file (the name must end in .npy) nor an "
                              "inline tensor [DTYPE:]SHAPE:VALUES");
    return parse_inline_tensor(argument, dtype);
}

}  // namespace io
