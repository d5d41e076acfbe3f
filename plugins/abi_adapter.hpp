// The plugin side of the C ABI in the suite's own types: a C call as core tensors, claims from
// the op table, results delivered through the host's allocator, exceptions kept from crossing
// the C boundary. Shared by the optimized plugin and the test plugins.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/op_config.hpp"
#include "core/tensor.hpp"
#include "plugins/eltwise_backend.h"

namespace plugins {

// One call in core types. The inputs are copies: core::Tensor owns its bytes.
struct CoreCall {
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    core::Tensor a, b;
};

// Fills `into`, reusing its buffers' capacity. Throws std::invalid_argument for an op or type
// name the suite does not know (the host never sends one) or a byte size that does not match
// the shape.
void to_core(const eltwise_call& call, CoreCall& into);

// The same call without copies: the inputs viewed where the host mapped them, valid during the
// call. The same checks and exceptions as to_core.
struct CoreView {
    const core::OpVersion* op = nullptr;
    core::AttributeMap attributes;
    core::TensorView a, b;
};
CoreView to_core_view(const eltwise_call& call);

// Info naming the plugin and claiming every (op version, type) the op table allows. The info
// and its strings live until the process exits.
const eltwise_backend_info* claim_whole_op_table(const char* name, const char* version);

// The same for the (op version, type) pairs of the op table that `runs` accepts; an op version
// with none is not claimed. Builds new info at each call (a plugin calls it once, in init).
const eltwise_backend_info* claim_op_table(
    std::string name, std::string version,
    const std::function<bool(const core::OpVersion&, core::ElementType)>& runs);

// Copies `text` into message, truncated to capacity - 1 bytes, NUL-terminated.
void write_message(char* message, std::size_t capacity, std::string_view text);

// Allocates an output of the given type name and shape through the host; NULL, with the
// message written, when the host could not.
void* allocate_output(const eltwise_output& out, std::string_view dtype, const core::Shape& shape,
                      char* message, std::size_t capacity);

// Allocates an output of the given type name and shape through the host and copies `bytes`
// (exactly the allocated size) into it. ELTWISE_OK, or ELTWISE_ERROR with a message.
int deliver(const eltwise_output& out, std::string_view dtype, const core::Shape& shape,
            std::span<const std::byte> bytes, char* message, std::size_t capacity);
// The same for a tensor's own type and shape.
int deliver(const eltwise_output& out, const core::Tensor& t, char* message, std::size_t capacity);

// Runs body() -> int inside the C boundary: core::Error (the specification rejects the call)
// becomes ELTWISE_REJECTED, any other exception ELTWISE_ERROR, each with its message.
template <class Body>
int guarded(char* message, std::size_t capacity, Body&& body) noexcept {
    try {
        return body();
    } catch (const core::Error& e) {
        write_message(message, capacity, e.what());
        return ELTWISE_REJECTED;
    } catch (const std::exception& e) {
        write_message(message, capacity, e.what());
    } catch (...) {
        write_message(message, capacity, "unknown exception");
    }
    return ELTWISE_ERROR;
}

}  // namespace plugins
