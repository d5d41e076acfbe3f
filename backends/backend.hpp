// A backend under test: what it claims, and one call per case. Built-in backends run in
// process; every other backend runs in a child process (process_backend.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/protocol.hpp"
#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace backends {

struct Call {
    std::int64_t id = 0;  // unique within the run
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    const core::Tensor* a = nullptr;
    const core::Tensor* b = nullptr;
    double timeout_seconds = 10;  // out-of-process backends only
    std::string graph_form{};     // "" or "runtime"; others only to backends whose hello lists them
    // The validator's own preparation of the call (output shape and type), when the spec accepts
    // it: what the validator needs about the answer, without preparing the call again.
    const core::PreparedCall* prepared = nullptr;
};

// The backend's answer, or what happened to it (the last three: out-of-process only).
enum class Outcome { ok, rejected, unsupported, error, crashed, hung, protocol_error };
std::string_view name(Outcome o);

struct UnreadOutput {
    core::ElementType type = core::ElementType::f32;
    core::Shape shape;
    std::uint64_t file_bytes = 0;
};

struct Result {
    Outcome outcome = Outcome::error;
    core::Tensor output;  // `ok` only, unless it is shared_output
    // rejected / unsupported / error: the backend's message. crashed: "SIGSEGV" or
    // "exit status 3", then the last lines of stderr. hung: the timeout. protocol_error: what
    // was wrong with the answer or the output file.
    std::string message;
    std::string reason{};  // rejected: the backend's class of the rejection, or "" (PROTOCOL.md 6)
    // `ok` from a backend that wrote its output into shared memory (PROTOCOL.md section 9, item
    // 17): the output in place, valid until the backend's next call; `output` is then empty.
    std::optional<core::TensorView> shared_output{};
    std::int64_t compilations = 0;  // what the answer said it compiled (PROTOCOL.md 9, item 19)
    // `ok` with an output file too large to read (PROTOCOL.md section 11, Limits) whose .npy
    // header is well formed and agrees with the file's size: the type and shape it names, which
    // are not the expected ones; `output` is then empty, the data unread.
    std::optional<UnreadOutput> unread_output{};
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual const Hello& hello() const = 0;
    // Never throws for anything the backend does; a run never aborts because of a backend.
    virtual Result run(const Call& call) = 0;
};

// The in-process backends: "reference" and "optimized". They claim every (op version, type)
// the table allows and answer `rejected` with core::Error's message for what the spec rejects.
std::vector<std::string_view> builtin_backend_names();
std::unique_ptr<Backend> make_builtin_backend(std::string_view name);  // nullptr: unknown name

}  // namespace backends
