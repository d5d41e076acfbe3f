#include "case_sources/pair_narrowing.hpp"

#include <charconv>
#include <cstring>
#include <stdexcept>

namespace case_sources {
namespace {

constexpr std::string_view kSuffix = ":pairs=";

std::optional<std::int64_t> index_of(std::string_view text) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0)
        return std::nullopt;
    return v;
}

// Attributes under which two equal 1-D shapes are valid and pair element i with element i.
core::AttributeMap equal_shape_attributes(const core::OpVersion& op, core::AttributeMap a) {
    switch (op.broadcast) {
        case core::BroadcastFamily::multidirectional:
            break;
        case core::BroadcastFamily::onnx_legacy:  // ONNX-1/6: broadcast=0 needs equal shapes
            a.erase("axis");
            if (a.count("broadcast")) a["broadcast"] = "0";
            break;
        case core::BroadcastFamily::auto_broadcast: {
            // none and numpy take equal shapes; pdpd takes them at axis 0 (or -1, the same here)
            const auto axis = a.find("auto_broadcast_axis");
            if (axis != a.end() && axis->second != "0" && axis->second != "-1") axis->second = "0";
            break;
        }
    }
    return a;
}

}  // namespace

std::string pairs_case_id(std::string_view id, PairRange range) {
    return std::string(id) + std::string(kSuffix) + std::to_string(range.first) + "-" +
           std::to_string(range.last);
}

std::optional<PairsId> parse_pairs_id(std::string_view id) {
    const std::size_t at = id.rfind(kSuffix);
    if (at == std::string_view::npos) return std::nullopt;
    const std::string_view range = id.substr(at + kSuffix.size());
    const std::size_t dash = range.find('-');
    const auto first = index_of(range.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : index_of(range.substr(dash + 1));
    if (!first || !last || *first > *last)
        throw std::invalid_argument("case '" + std::string(id) + "': '" + std::string(range) +
                                    "' is not FIRST-LAST output indices, FIRST <= LAST");
    return PairsId{id.substr(0, at), {*first, *last}};
}

core::CaseRecord narrowed_to_pairs(const core::CaseRecord& data, PairRange range) {
    if (!data.valid || !data.op)
        throw std::invalid_argument("an invalid case has no output elements to narrow to");
    const core::PreparedCall call = core::prepare_call(*data.op, data.attributes, data.a, data.b);
    const std::int64_t n = core::element_count(call.plan.output);
    if (range.last >= n)
        throw std::invalid_argument("pairs " + std::to_string(range.first) + "-" +
                                    std::to_string(range.last) + " are outside the case's " +
                                    std::to_string(n) + " output elements");
    core::CaseRecord out = data;
    out.attributes = equal_shape_attributes(*data.op, data.attributes);
    out.a = core::Tensor::uninitialized(data.a.type, {range.count()});
    out.b = core::Tensor::uninitialized(data.b.type, {range.count()});
    out.expected = {};
    const std::size_t a_size = core::byte_size(data.a.type), b_size = core::byte_size(data.b.type);
    core::for_each_offset(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        if (i < range.first || i > range.last) return;
        const auto k = static_cast<std::size_t>(i - range.first);
        std::memcpy(out.a.bytes.data() + k * a_size,
                    data.a.bytes.data() + static_cast<std::size_t>(ia) * a_size, a_size);
        std::memcpy(out.b.bytes.data() + k * b_size,
                    data.b.bytes.data() + static_cast<std::size_t>(ib) * b_size, b_size);
    });
    core::prepare_call(*out.op, out.attributes, out.a, out.b);  // still valid, or core::Error
    return out;
}

PlannedCase narrowed_case(PlannedCase c, PairRange range) {
    c.id = pairs_case_id(c.id, range);
    c.valid = true;  // a case planned invalid that the reference accepts is narrowed too
    c.build = [build = std::move(c.build), range] { return narrowed_to_pairs(build(), range); };
    return c;
}

}  // namespace case_sources
