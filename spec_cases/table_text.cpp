#include "spec_cases/table_text.hpp"

#include <charconv>

#include "core/element_text.hpp"
#include "core/error.hpp"
#include "spec_cases/embedded_data.hpp"

namespace spec_cases {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string> split(std::string_view s, char separator) {
    std::vector<std::string> out;
    while (true) {
        const auto at = s.find(separator);
        out.emplace_back(trim(s.substr(0, at)));
        if (at == std::string_view::npos) return out;
        s.remove_prefix(at + 1);
    }
}

void fail(const TableRow& row, const std::string& message) {
    throw core::Error(core::ErrorKind::input, row.where + ": " + message);
}

std::vector<TableRow> read_table(std::string_view path, std::size_t fields) {
    std::string_view text = embedded_file(path);
    std::vector<TableRow> rows;
    for (int line = 1; !text.empty(); ++line) {
        const auto end = text.find('\n');
        const std::string_view content = trim(text.substr(0, end));
        text = end == std::string_view::npos ? "" : text.substr(end + 1);
        if (content.empty() || content.front() == '#') continue;
        TableRow row{std::string(path) + ":" + std::to_string(line), split(content, '|')};
        if (row.fields.size() != fields)
            fail(row, "expected " + std::to_string(fields) + " fields separated by '|', found " +
                          std::to_string(row.fields.size()));
        rows.push_back(std::move(row));
    }
    return rows;
}

core::Shape parse_shape(std::string_view text) {
    text = trim(text);
    core::Shape shape;
    if (text.empty() || text == "()") return shape;
    for (const std::string& dim : split(text, 'x')) {
        std::int64_t d = -1;
        auto [p, ec] = std::from_chars(dim.data(), dim.data() + dim.size(), d);
        if (dim.empty() || ec != std::errc() || p != dim.data() + dim.size() || d < 0)
            throw core::Error(core::ErrorKind::input, "bad shape '" + std::string(text) + "'");
        shape.push_back(d);
    }
    return shape;
}

core::AttributeMap parse_attributes(std::string_view text) {
    core::AttributeMap attributes;
    for (const std::string& item : split(trim(text), ' ')) {
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw core::Error(core::ErrorKind::input, "bad attribute '" + item + "', expected k=v");
        attributes[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return attributes;
}

core::Tensor parse_shaped_values(core::ElementType type, std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos)
        throw core::Error(core::ErrorKind::input,
                          "expected SHAPE:VALUES, got '" + std::string(text) + "'");
    core::Tensor t = core::Tensor::zeros(type, parse_shape(text.substr(0, colon)));
    const std::string_view list = trim(text.substr(colon + 1));
    const std::vector<std::string> values =
        list.empty() ? std::vector<std::string>{} : split(list, ',');
    if (static_cast<std::int64_t>(values.size()) != t.size())
        throw core::Error(core::ErrorKind::input,
                          "'" + std::string(text) + "' has " + std::to_string(values.size()) +
                              " values for " + std::to_string(t.size()) + " elements");
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!core::parse_element(t, static_cast<std::int64_t>(i), values[i]))
            throw core::Error(core::ErrorKind::input, "'" + values[i] + "' is not exact in " +
                                                          std::string(core::name(type)));
    return t;
}

}  // namespace spec_cases
