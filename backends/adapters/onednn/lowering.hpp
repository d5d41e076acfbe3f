// What a model converter does before it calls oneDNN's binary primitive for one of the suite's
// op versions: check the element types and attributes against the op's schema, and lower the
// op's broadcast rule to oneDNN's own (src0, src1 and dst of one rank; a source's size-1 dims
// broadcast to dst's).
// No oneDNN here, so that the lowering is testable on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace backends::adapters::onednn {

using Dims = std::vector<std::int64_t>;

// The op's schema rejects the call (bad type, attribute or shape): the answer is `rejected`.
struct Rejected : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A valid call that oneDNN cannot run (type, rank, rounding): the answer is `unsupported`.
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Arithmetic { multiply, divide };

// Which attributes a version takes, and so which broadcast rules it can ask for.
enum class Family {
    onnx_legacy_1,  // Mul-1, Div-1: broadcast, axis, consumed_inputs
    onnx_legacy_6,  // Mul-6, Div-6: broadcast, axis
    onnx_numpy,     // Mul/Div 7, 13, 14: no attributes, numpy broadcasting
    openvino,       // Multiply-1, Divide-1: auto_broadcast, auto_broadcast_axis (+ m_pythondiv)
};

struct OpVersion {
    std::string_view id;  // as `eltwise-validate list` prints it
    Arithmetic arithmetic;
    Family family;
    std::string_view allowed;  // the schema's element types, space-separated
};

// The twelve op versions of the suite, with the element types their schemas allow.
const std::vector<OpVersion>& op_versions();
const OpVersion* find_op(std::string_view id);  // nullptr for an unknown id
bool allows(const OpVersion& op, std::string_view dtype);

enum class Rule { none, numpy, pdpd, onnx_legacy };

struct Attributes {
    Rule rule = Rule::numpy;
    std::optional<std::int64_t> axis;  // pdpd (-1 when unset) and onnx_legacy (unset: suffix)
    bool floor_division = false;       // Divide-1 with m_pythondiv=true
};

// Throws Rejected for boolean or mixed types, or a type the schema does not allow.
void check_types(const OpVersion& op, std::string_view a, std::string_view b);

// Throws Rejected for an unknown or repeated attribute or a bad value. Absent attributes take
// their defaults.
Attributes parse_attributes(const OpVersion& op,
                            const std::vector<std::pair<std::string, std::string>>& given);

// The shapes of one oneDNN call, all of one rank (>= 1: oneDNN has no rank 0): src0, src1
// and dst, where a size-1 dim of a source is broadcast to dst's; and the shape of the op's
// output, which has dst's dims in the rank the spec gives it.
struct Lowered {
    Dims src0, src1, dst, output;
};

// Lowers the rule like a converter: prepends 1s (numpy), reshapes B (pdpd, ONNX legacy),
// rank 0 -> [1]. Throws Rejected where the rule's own structure fails (ranks, axis, shapes
// that `none`/ONNX legacy need equal). Dims that neither match nor are 1 (numpy, pdpd) are
// left for oneDNN to reject: dst takes A's dim there.
Lowered lower(const Attributes& attributes, const Dims& a, const Dims& b);

std::string to_string(const Dims& dims);  // "[2,3]"

}  // namespace backends::adapters::onednn
