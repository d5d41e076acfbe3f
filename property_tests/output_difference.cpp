#include "property_tests/output_difference.hpp"

#include <algorithm>
#include <sstream>

#include "core/element_text.hpp"
#include "generators/value_generators.hpp"

namespace property_tests {

// The tests draw from the generators of generators/ by their plain names.
using namespace generators;
namespace {

std::string list_text(const std::vector<std::int64_t>& v) {
    std::string out = "{";
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + std::to_string(v[i]);
    return out + "}";
}

std::string element_text(const core::Tensor& t, std::int64_t i) {
    std::ostringstream os;
    os << core::format_element(t, i) << " (bits 0x" << std::hex << core::element_bits(t, i) << ")";
    return os.str();
}

std::string shape_or_type_difference(NamedOutput x, NamedOutput y) {
    const core::Tensor& p = x.output.value;
    const core::Tensor& q = y.output.value;
    if (p.type == q.type && p.shape == q.shape) return "";
    return std::string("output ") + x.name + " is " + std::string(core::name(p.type)) +
           core::to_string(p.shape) + " but " + y.name + " is " + std::string(core::name(q.type)) +
           core::to_string(q.shape);
}

bool is_listed(const std::vector<std::int64_t>& sorted, std::int64_t i) {
    return std::binary_search(sorted.begin(), sorted.end(), i);
}

}  // namespace

std::optional<Layout> layout_of(const Case& c) {
    return model_layout(c.combination.rule, c.shapes.a, c.shapes.b, c.shapes.axis);
}

std::string describe_element(const Case& c, std::int64_t i) {
    const auto layout = layout_of(c);
    if (!layout) return "element " + std::to_string(i);
    const auto [ia, ib] = input_offsets(*layout, i);
    return "element " + std::to_string(i) + " (A[" + std::to_string(ia) +
           "] = " + core::format_element(c.a, ia) + ", B[" + std::to_string(ib) +
           "] = " + core::format_element(c.b, ib) + ")";
}

std::vector<std::int64_t> expected_undefined(const Case& c) {
    std::vector<std::int64_t> out;
    const auto layout = layout_of(c);
    if (!layout || !c.combination.is_division() || !c.combination.is_integer()) return out;
    for (std::int64_t i = 0; i < elements(layout->output); ++i)
        if (core::element_bits(c.b, input_offsets(*layout, i).second) == 0) out.push_back(i);
    return out;
}

std::string output_difference(const Case& c, NamedOutput x, NamedOutput y) {
    if (auto d = shape_or_type_difference(x, y); !d.empty()) return d;
    if (x.output.undefined != y.output.undefined)
        return std::string("undefined elements differ: ") + x.name + " " +
               list_text(x.output.undefined) + ", " + y.name + " " + list_text(y.output.undefined);
    const core::Tensor& p = x.output.value;
    const core::Tensor& q = y.output.value;
    for (std::int64_t i = 0; i < p.size(); ++i) {
        if (is_listed(x.output.undefined, i)) continue;
        if (comparison::same_element(p.type, core::element_bits(p, i), core::element_bits(q, i)))
            continue;
        return describe_element(c, i) + ": " + x.name + " = " + element_text(p, i) + ", " + y.name +
               " = " + element_text(q, i);
    }
    return "";
}

std::string undefined_difference(const Case& c, NamedOutput out) {
    const std::vector<std::int64_t> expected = expected_undefined(c);
    if (out.output.undefined == expected) return "";
    return std::string(out.name) + " marks elements " + list_text(out.output.undefined) +
           " undefined; the zero divisors are at " + list_text(expected);
}

}  // namespace property_tests
