#include "case_sources/exhaustive16_cases.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace case_sources {
namespace {

constexpr std::string_view kPrefix = "exhaustive16:";

const std::vector<ExhaustiveFunction>& functions() {
    using core::ElementType;
    static const std::vector<ExhaustiveFunction> all = exhaustive_functions(
        {ElementType::f16, ElementType::bf16, ElementType::i16, ElementType::u16});
    return all;
}

std::string hex(std::uint32_t bits) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%04x", static_cast<unsigned>(bits));
    return text;
}

std::string range_text(std::uint32_t first, std::uint32_t last) {
    return first == last ? hex(first) : hex(first) + "-" + hex(last);
}

std::uint32_t parse_bits(std::string_view text, std::string_view id) {
    unsigned value = 0;
    const bool hex_form = text.size() == 6 && text.starts_with("0x");
    const char* end = text.data() + text.size();
    if (hex_form) {
        const auto [ptr, ec] = std::from_chars(text.data() + 2, end, value, 16);
        if (ec == std::errc() && ptr == end) return value;
    }
    throw std::invalid_argument("exhaustive16 case '" + std::string(id) + "': '" +
                                std::string(text) + "' is not a 16-bit pattern like 0x3c00");
}

// "0x0100-0x01ff" or "0x3c00" into [first, last].
void parse_range(std::string_view text, std::uint32_t& first, std::uint32_t& last,
                 std::string_view id) {
    const std::size_t dash = text.find('-');
    first = parse_bits(text.substr(0, dash), id);
    last = dash == std::string_view::npos ? first : parse_bits(text.substr(dash + 1), id);
    if (last < first)
        throw std::invalid_argument("exhaustive16 case '" + std::string(id) + "': range '" +
                                    std::string(text) + "' ends before it starts");
}

// "a=RANGE:b=RANGE" or "b=RANGE" (A then spans every pattern).
PairBlock parse_block(std::string_view text, std::string_view id) {
    PairBlock block;
    if (text.starts_with("a=")) {
        const std::size_t colon = text.find(':');
        parse_range(text.substr(2, colon - 2), block.a_first, block.a_last, id);
        text = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    }
    if (!text.starts_with("b="))
        throw std::invalid_argument("exhaustive16 case '" + std::string(id) +
                                    "': expected 'b=0x....' after the function");
    parse_range(text.substr(2), block.b_first, block.b_last, id);
    return block;
}

const ExhaustiveFunction& find_function(std::string_view text, std::string_view id) {
    for (const ExhaustiveFunction& f : functions())
        if (f.id == text) return f;
    throw std::invalid_argument("exhaustive16 case '" + std::string(id) +
                                "': no 16-bit function '" + std::string(text) +
                                "' (see `eltwise-validate list`)");
}

// Row-major fill: element k holds first + k % period (one period written, then copied).
core::Tensor patterns(core::ElementType t, core::Shape shape, std::uint32_t first,
                      std::int64_t period) {
    core::Tensor out = core::Tensor::zeros(t, std::move(shape));
    const auto values = out.values<std::uint16_t>();
    const auto n = static_cast<std::size_t>(period);
    for (std::size_t k = 0; k < n && k < values.size(); ++k)
        values[k] = static_cast<std::uint16_t>(first + k);
    for (std::size_t k = n; k < values.size(); k += n)
        std::copy_n(values.begin(), n, values.begin() + static_cast<std::ptrdiff_t>(k));
    return out;
}

// B placed along A's leading axis, for a version whose default rule cannot stretch B's size-1
// dim (ONNX-1/6 legacy): its first rule that takes an axis, at axis 0.
core::AttributeMap leading_axis_attributes(const core::OpVersion& op) {
    for (core::BroadcastRule rule : core::broadcast_rules(op))
        if (core::takes_axis(rule)) return *core::rule_attributes(op, rule, 0);
    throw std::logic_error(op.id() + " can neither stretch B nor place it at an axis");
}

}  // namespace

std::string exhaustive16_case_id(const Exhaustive16Key& key) {
    const PairBlock& b = key.block;
    std::string id = std::string(kPrefix) + key.function.id + ":";
    if (b.a_first != 0 || b.a_last != 0xffff) id += "a=" + range_text(b.a_first, b.a_last) + ":";
    return id + "b=" + range_text(b.b_first, b.b_last);
}

std::optional<Exhaustive16Key> parse_exhaustive16_case_id(std::string_view id) {
    if (!id.starts_with(kPrefix)) return std::nullopt;
    const std::string_view rest = id.substr(kPrefix.size());
    std::size_t at = rest.find(":a=");
    if (at == std::string_view::npos) at = rest.find(":b=");
    if (at == std::string_view::npos)
        throw std::invalid_argument("exhaustive16 case '" + std::string(id) +
                                    "': expected FUNCTION:b=0x....[-0x....]");
    return Exhaustive16Key{find_function(rest.substr(0, at), id),
                           parse_block(rest.substr(at + 1), id)};
}

core::CaseRecord exhaustive16_case_data(const Exhaustive16Key& key) {
    const PairBlock& k = key.block;
    const core::ElementType t = key.function.type;
    const core::OpVersion& op = *key.function.op;
    core::CaseRecord data{.op = &op, .attributes = key.function.attributes};
    if (!core::stretches_size_one_dims(
            core::resolve_attributes(op, data.attributes).broadcast.rule)) {
        for (const auto& [name, value] : leading_axis_attributes(op))
            data.attributes[name] = value;
        data.a = patterns(t, {k.b_count(), k.a_count()}, k.a_first, k.a_count());
        data.b = patterns(t, {k.b_count()}, k.b_first, k.b_count());
    } else {
        data.a = patterns(t, {k.a_count()}, k.a_first, k.a_count());
        data.b = patterns(t, {k.b_count(), 1}, k.b_first, k.b_count());
    }
    return data;
}

PlannedCase exhaustive16_planned_case(const Exhaustive16Key& key) {
    return {
        exhaustive16_case_id(key), "exhaustive16", key.function.op,
        key.function.type,         true,           [key] { return exhaustive16_case_data(key); }};
}

PairBlock pair_at(const PairBlock& block, std::int64_t index) {
    const auto a = block.a_first + static_cast<std::uint32_t>(index % block.a_count());
    const auto b = block.b_first + static_cast<std::uint32_t>(index / block.a_count());
    return {a, a, b, b};
}

std::vector<PlannedCase> plan_exhaustive16_cases() {
    std::vector<PlannedCase> out;
    for (const ExhaustiveFunction& f : functions()) {
        const bool integer_division =
            f.op->arithmetic == core::Arithmetic::divide && !core::is_floating(f.type);
        std::uint32_t first = 0;
        if (integer_division) {
            out.push_back(exhaustive16_planned_case({f, {0, 0xffff, 0, 0}}));
            first = 1;
        }
        for (; first <= 0xffff; first = (first / kRowsPerBlock + 1) * kRowsPerBlock) {
            const std::uint32_t last = (first / kRowsPerBlock + 1) * kRowsPerBlock - 1;
            out.push_back(exhaustive16_planned_case({f, {0, 0xffff, first, last}}));
        }
    }
    return out;
}

}  // namespace case_sources
