// The eltwise-backend/1 protocol messages (backends/PROTOCOL.md sections 2-4): one JSON object
// per line.
// Both sides use this: the validator's process client and the plugin host.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/graph_form.hpp"
#include "core/op_config.hpp"
#include "core/tensor.hpp"
#include "platform/gpu_facts.hpp"

namespace backends {

inline constexpr std::string_view kProtocolName = "eltwise-backend/1";

// A malformed line: not JSON, a missing or mistyped field, an unknown status or type name.
class ProtocolError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// How a graph gets the node's inputs (PROTOCOL.md section 9, item 16).
using core::is_graph_form;
using core::kGraphForms;
using core::kRuntimeForm;

// What a backend claims: op-version id ("onnx.Mul-14") -> element types, the graph forms it
// builds (none listed: runtime only), whether it can write its output into the validator's
// shared memory (PROTOCOL.md section 9, item 17), and whether it reads its inputs from the
// validator's shared memory (item 18).
// How a compiling backend compiles (PROTOCOL.md section 9, item 19): recorded in the run line;
// latency_seconds, the longest one case's compilation takes, lengthens every case's timeout.
struct CompileInfo {
    std::string compiler, target, shapes;
    double latency_seconds = 0;
};

struct Hello {
    std::string name;
    std::string version;
    std::map<std::string, std::vector<core::ElementType>> ops;
    std::vector<std::string> graph_forms{};
    bool output_region = false;
    bool input_region = false;
    std::optional<CompileInfo> compile{};
    platform::GpuFacts gpu{};  // the GPU its code runs on (PROTOCOL.md section 9, item 20)
    std::string build{};       // which build of the library runs (PROTOCOL.md section 9, item 21)

    bool claims(std::string_view op_id) const;
    bool claims(std::string_view op_id, core::ElementType t) const;
    bool builds(std::string_view graph_form) const;  // runtime always
};

// One input or output file as the request describes it. An input with an offset is the .npy at
// that byte of `path`, the validator's sealed input region (PROTOCOL.md section 9, item 18).
struct TensorFile {
    std::string path;
    core::ElementType dtype = core::ElementType::f32;
    core::Shape shape;
    std::optional<std::uint64_t> offset{};
};

// Shared memory of `bytes` bytes that the backend may open at `path` and write the output's whole
// .npy into, from offset 0, instead of writing the file `out` (PROTOCOL.md section 9, item 17).
struct OutRegion {
    std::string path;
    std::uint64_t bytes = 0;
};

struct Request {
    std::int64_t id = 0;
    std::string op;  // op-version id
    core::AttributeMap attributes;
    TensorFile a, b;
    std::string out;                        // where an `ok` answer's output file goes
    std::string graph_form{};               // "" or "runtime": not sent
    std::optional<OutRegion> out_region{};  // only to backends whose hello offers it
};

enum class Answer { ok, rejected, unsupported, error };
std::string_view name(Answer a);  // "ok", "rejected", ...

struct Response {
    std::int64_t id = 0;
    Answer status = Answer::ok;
    std::optional<core::ElementType> dtype;  // `ok`: the output type, when given
    std::string message;
    std::string reason{};           // `rejected`: one of kRejectionReasons, or "" when not given
    bool in_region = false;         // `ok`: the output is in the request's out_region, not at `out`
    std::int64_t compilations = 0;  // compilations this request made (section 9, item 19)
};

// The classes of a rejection (PROTOCOL.md section 6): what about the inputs is invalid.
inline constexpr std::string_view kRejectionReasons[] = {"shape", "type", "attribute", "other"};
// The reason class of the suite's own rejection error.
std::string rejection_reason(core::ErrorKind kind);

// Serialized without the trailing newline. Type names are core::name() ("i32", "bf16", and
// "boolean" for the boolean inputs of invalid cases).
std::string to_line(const Hello& h);
std::string to_line(const Request& r);
std::string to_line(const Response& r);

// Each throws ProtocolError saying what is wrong with the line. parse_hello also rejects a
// `protocol` other than kProtocolName, unknown op-version ids and unknown type names.
Hello parse_hello(std::string_view line);
Request parse_request(std::string_view line);
Response parse_response(std::string_view line);

}  // namespace backends
