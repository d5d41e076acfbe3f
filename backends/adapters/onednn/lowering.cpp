#include "backends/adapters/onednn/lowering.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace backends::adapters::onednn {
namespace {

// Type lists of the ONNX schemas (onnx/defs/math/defs.cc, old.cc) and of OpenVINO's ops.
constexpr std::string_view kOnnx1 = "f16 f32 f64";
constexpr std::string_view kOnnx6 = "f16 f32 f64 i32 i64 u32 u64";
constexpr std::string_view kOnnx13 = "f16 f32 f64 i32 i64 u32 u64 bf16";
constexpr std::string_view kOnnx14 = "f16 f32 f64 i32 i64 u32 u64 bf16 i8 i16 u8 u16";

std::string lower_case(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end) return std::nullopt;
    return v;
}

[[noreturn]] void bad_attribute(const OpVersion& op, const std::string& name,
                                const std::string& value, std::string_view why) {
    throw Rejected(std::string(op.id) + ": attribute " + name + "=\"" + value +
                   "\" is invalid: " + std::string(why));
}

std::int64_t integer_at_least(const OpVersion& op, const std::string& name,
                              const std::string& value, std::int64_t minimum) {
    const auto n = parse_integer(value);
    if (!n) bad_attribute(op, name, value, "expected an integer");
    if (*n < minimum) bad_attribute(op, name, value, "too small");
    return *n;
}

void check_integer_list(const OpVersion& op, const std::string& name, const std::string& value) {
    std::string_view rest = value;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        if (!parse_integer(rest.substr(0, comma)))
            bad_attribute(op, name, value, "expected comma-separated integers");
        rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    }
}

// ONNX Mul/Div 1 and 6. broadcast=0 needs equal shapes: the rule `none`.
void set_legacy(const OpVersion& op, const std::string& name, const std::string& value,
                Attributes& out) {
    if (name == "broadcast") {
        const auto n = parse_integer(value);
        if (!n || (*n != 0 && *n != 1)) bad_attribute(op, name, value, "expected 0 or 1");
        out.rule = *n == 1 ? Rule::onnx_legacy : Rule::none;
    } else if (name == "axis") {
        out.axis = integer_at_least(op, name, value, 0);
    } else if (name == "consumed_inputs" && op.family == Family::onnx_legacy_1) {
        check_integer_list(op, name, value);  // a legacy memory hint: no effect on the result
    } else {
        throw Rejected(std::string(op.id) + " has no attribute '" + name + "'");
    }
}

bool parse_bool(const OpVersion& op, const std::string& name, const std::string& value) {
    const std::string v = lower_case(value);
    if (v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    bad_attribute(op, name, value, "expected true or false");
}

void set_openvino(const OpVersion& op, const std::string& name, const std::string& value,
                  Attributes& out) {
    if (name == "auto_broadcast") {
        const std::string v = lower_case(value);
        if (v == "none")
            out.rule = Rule::none;
        else if (v == "numpy")
            out.rule = Rule::numpy;
        else if (v == "pdpd")
            out.rule = Rule::pdpd;
        else
            bad_attribute(op, name, value, "expected none, numpy or pdpd");
    } else if (name == "auto_broadcast_axis") {
        out.axis = integer_at_least(op, name, value, -1);
    } else if (name == "m_pythondiv" && op.arithmetic == Arithmetic::divide) {
        out.floor_division = parse_bool(op, name, value);
    } else {
        throw Rejected(std::string(op.id) + " has no attribute '" + name + "'");
    }
}

Dims with_rank(const Dims& d, std::size_t rank) {  // prepends 1s
    Dims out(rank - d.size(), 1);
    out.insert(out.end(), d.begin(), d.end());
    return out;
}

// src0 = dst = A (rank >= 1), src1 = `b_kept` placed at `axis` inside A's rank, 1 elsewhere.
Lowered place_b(const Dims& a, const Dims& b_kept, std::size_t axis) {
    const std::size_t rank = std::max<std::size_t>(a.size(), 1);
    Dims src1(rank, 1);
    std::copy(b_kept.begin(), b_kept.end(), src1.begin() + static_cast<std::ptrdiff_t>(axis));
    const Dims src0 = with_rank(a, rank);
    return {src0, src1, src0, a};
}

[[noreturn]] void reject_shapes(const Dims& a, const Dims& b, std::string_view rule,
                                const std::string& why) {
    throw Rejected("cannot broadcast A " + to_string(a) + " with B " + to_string(b) + " (" +
                   std::string(rule) + "): " + why);
}

Lowered lower_none(const Dims& a, const Dims& b) {
    if (a != b) reject_shapes(a, b, "no broadcasting", "the shapes must be identical");
    const Dims src0 = with_rank(a, std::max<std::size_t>(a.size(), 1));
    return {src0, src0, src0, a};
}

// Both inputs may be broadcast: oneDNN broadcasts src0 too when dst has the full shape.
Lowered lower_numpy(const Dims& a, const Dims& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    Lowered out{with_rank(a, std::max<std::size_t>(rank, 1)),
                with_rank(b, std::max<std::size_t>(rank, 1)),
                {},
                {}};
    // Where the dims differ and neither is 1, dst takes A's: oneDNN's to reject.
    for (std::size_t d = 0; d < out.src0.size(); ++d)
        out.dst.push_back(out.src0[d] == 1 ? out.src1[d] : out.src0[d]);
    // dst's last `rank` dims: without the dim that stood in for rank 0.
    out.output.assign(out.dst.end() - static_cast<std::ptrdiff_t>(rank), out.dst.end());
    return out;
}

// OpenVINO's pdpd: the default axis comes from B's rank as given; then B's trailing 1s go.
Lowered lower_pdpd(const Dims& a, const Dims& b, std::int64_t axis) {
    if (b.size() > a.size()) reject_shapes(a, b, "pdpd", "rank(B) exceeds rank(A)");
    const auto rank_a = static_cast<std::int64_t>(a.size());
    if (axis == -1) axis = rank_a - static_cast<std::int64_t>(b.size());
    Dims kept = b;
    while (!kept.empty() && kept.back() == 1)
        kept.pop_back();
    if (axis > rank_a - static_cast<std::int64_t>(kept.size()))  // no overflow for huge axes
        reject_shapes(a, b, "pdpd", "B does not fit in A from axis " + std::to_string(axis));
    return place_b(a, kept, static_cast<std::size_t>(axis));  // B dims vs A: oneDNN checks
}

// ONNX Mul-1/6 broadcast=1: B is one element, or a contiguous run of A's dims (exactly: "1-dim
// expansion doesn't work yet"), starting at `axis` or aligned to A's end.
Lowered lower_onnx_legacy(const Dims& a, const Dims& b, std::optional<std::int64_t> axis) {
    const auto rank_a = static_cast<std::int64_t>(a.size());
    const auto rank_b = static_cast<std::int64_t>(b.size());
    if (rank_b > rank_a) reject_shapes(a, b, "onnx legacy", "rank(B) exceeds rank(A)");
    if (axis && *axis > rank_a - rank_b)  // no overflow for huge axes
        reject_shapes(a, b, "onnx legacy",
                      "B does not fit in A from axis " + std::to_string(*axis));
    const bool one_element = std::all_of(b.begin(), b.end(), [](std::int64_t d) { return d == 1; });
    if (one_element) return place_b(a, {}, 0);
    const std::int64_t start = axis.value_or(rank_a - rank_b);
    for (std::int64_t i = 0; i < rank_b; ++i)
        if (a[static_cast<std::size_t>(start + i)] != b[static_cast<std::size_t>(i)])
            reject_shapes(a, b, "onnx legacy",
                          "B dim " + std::to_string(i) + " must equal A dim " +
                              std::to_string(start + i) + "; size-1 dims do not stretch");
    return place_b(a, b, static_cast<std::size_t>(start));
}

}  // namespace

const std::vector<OpVersion>& op_versions() {
    using enum Arithmetic;
    using enum Family;
    static const std::vector<OpVersion> table = {
        {"onnx.Mul-1", multiply, onnx_legacy_1, kOnnx1},
        {"onnx.Mul-6", multiply, onnx_legacy_6, kOnnx6},
        {"onnx.Mul-7", multiply, onnx_numpy, kOnnx6},
        {"onnx.Mul-13", multiply, onnx_numpy, kOnnx13},
        {"onnx.Mul-14", multiply, onnx_numpy, kOnnx14},
        {"onnx.Div-1", divide, onnx_legacy_1, kOnnx1},
        {"onnx.Div-6", divide, onnx_legacy_6, kOnnx6},
        {"onnx.Div-7", divide, onnx_numpy, kOnnx6},
        {"onnx.Div-13", divide, onnx_numpy, kOnnx13},
        {"onnx.Div-14", divide, onnx_numpy, kOnnx14},
        {"openvino.Multiply-1", multiply, openvino, kOnnx14},
        {"openvino.Divide-1", divide, openvino, kOnnx14},
    };
    return table;
}

const OpVersion* find_op(std::string_view id) {
    for (const OpVersion& op : op_versions())
        if (op.id == id) return &op;
    return nullptr;
}

bool allows(const OpVersion& op, std::string_view dtype) {
    std::string_view rest = op.allowed;
    while (!rest.empty()) {
        const auto space = rest.find(' ');
        if (rest.substr(0, space) == dtype) return true;
        rest = space == std::string_view::npos ? "" : rest.substr(space + 1);
    }
    return false;
}

void check_types(const OpVersion& op, std::string_view a, std::string_view b) {
    const std::string id(op.id);
    if (a == "boolean" || b == "boolean")
        throw Rejected(id + ": arguments cannot have boolean element type");
    if (a != b)
        throw Rejected(id + ": A is " + std::string(a) + " but B is " + std::string(b) +
                       "; both inputs must have the same element type");
    if (!allows(op, a)) throw Rejected(id + " does not allow element type " + std::string(a));
}

Attributes parse_attributes(const OpVersion& op,
                            const std::vector<std::pair<std::string, std::string>>& given) {
    Attributes out;
    if (op.family == Family::onnx_legacy_1 || op.family == Family::onnx_legacy_6)
        out.rule = Rule::none;  // broadcast defaults to 0
    if (op.family == Family::openvino) out.axis = -1;
    out.floor_division = op.family == Family::openvino && op.arithmetic == Arithmetic::divide;
    std::vector<std::string> seen;
    for (const auto& [key, value] : given) {
        const std::string name = key == "pythondiv" ? "m_pythondiv" : key;  // the spec's spelling
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
            throw Rejected(std::string(op.id) + ": attribute " + name + " is given twice");
        seen.push_back(name);
        if (op.family == Family::openvino)
            set_openvino(op, name, value, out);
        else if (op.family == Family::onnx_numpy)
            throw Rejected(std::string(op.id) + " has no attribute '" + key + "' (it takes none)");
        else
            set_legacy(op, name, value, out);
    }
    return out;
}

Lowered lower(const Attributes& attributes, const Dims& a, const Dims& b) {
    switch (attributes.rule) {
        case Rule::none:
            return lower_none(a, b);
        case Rule::numpy:
            return lower_numpy(a, b);
        case Rule::pdpd:
            return lower_pdpd(a, b, attributes.axis.value_or(-1));
        case Rule::onnx_legacy:
            return lower_onnx_legacy(a, b, attributes.axis);
    }
    __builtin_unreachable();
}

std::string to_string(const Dims& dims) {
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "]";
}

}  // namespace backends::adapters::onednn
