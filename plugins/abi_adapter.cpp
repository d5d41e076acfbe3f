#include "plugins/abi_adapter.hpp"

#include <algorithm>
#include <cstring>
#include <list>
#include <stdexcept>
#include <vector>

#include "core/op_table.hpp"

namespace plugins {
namespace {

core::ElementType type_named(const char* name) {
    if (name)
        if (auto t = core::element_type_named(name)) return *t;
    throw std::invalid_argument(std::string("unknown element type '") + (name ? name : "(null)") +
                                "'");
}

core::TensorView to_view(const eltwise_tensor& from) {
    const core::ElementType type = type_named(from.dtype);
    if (from.rank < 0 || static_cast<std::size_t>(from.rank) > core::kMaxRank ||
        (from.rank > 0 && !from.shape))
        throw std::invalid_argument("an input has the invalid rank " + std::to_string(from.rank));
    core::Shape shape(from.shape, from.shape + from.rank);
    const auto expected =
        static_cast<std::size_t>(core::element_count(shape)) * core::byte_size(type);
    if (from.byte_size != expected || (expected > 0 && !from.data))
        throw std::invalid_argument("an input holds " + std::to_string(from.byte_size) +
                                    " bytes, its shape needs " + std::to_string(expected));
    return {type, std::move(shape), {static_cast<const std::byte*>(from.data), from.byte_size}};
}

void to_tensor(const eltwise_tensor& from, core::Tensor& into) {
    const core::TensorView view = to_view(from);
    into.type = view.type;
    into.shape = view.shape;
    into.bytes.assign(view.bytes.begin(), view.bytes.end());
}

const core::OpVersion* op_named(const char* name) {
    const core::OpVersion* op = name ? core::find_op_version(name) : nullptr;
    if (!op || op->id() != name)
        throw std::invalid_argument(std::string("unknown op-version id '") +
                                    (name ? name : "(null)") + "'");
    return op;
}

core::AttributeMap attributes_of(const eltwise_call& call) {
    core::AttributeMap attributes;
    for (std::size_t i = 0; i < call.attribute_count; ++i)
        attributes[call.attributes[i].name] = call.attributes[i].value;
    return attributes;
}

// Strings and claims for (part of) the op table; kept until the process exits.
struct OpTableClaims {
    std::string name, version;
    std::vector<std::string> ops, types;
    std::vector<eltwise_claim> claims;
    eltwise_backend_info info{};

    OpTableClaims(std::string name_, std::string version_,
                  const std::function<bool(const core::OpVersion&, core::ElementType)>& runs)
        : name(std::move(name_)), version(std::move(version_)) {
        for (const core::OpVersion& op : core::op_versions()) {
            std::vector<core::ElementType> run;
            for (core::ElementType t : op.element_types)
                if (runs(op, t)) run.push_back(t);
            if (run.empty()) continue;
            ops.push_back(op.id());
            types.push_back(core::to_string(run));
        }
        for (std::size_t i = 0; i < ops.size(); ++i)
            claims.push_back({ops[i].c_str(), types[i].c_str()});
        info = {ELTWISE_BACKEND_ABI_VERSION, name.c_str(), version.c_str(), claims.size(),
                claims.data()};
    }
};

}  // namespace

void to_core(const eltwise_call& call, CoreCall& into) {
    into.op = op_named(call.op);
    into.attributes = attributes_of(call);
    to_tensor(call.a, into.a);
    to_tensor(call.b, into.b);
}

CoreView to_core_view(const eltwise_call& call) {
    return {op_named(call.op), attributes_of(call), to_view(call.a), to_view(call.b)};
}

const eltwise_backend_info* claim_whole_op_table(const char* name, const char* version) {
    static const OpTableClaims claims(
        name, version, [](const core::OpVersion&, core::ElementType) { return true; });
    return &claims.info;
}

const eltwise_backend_info* claim_op_table(
    std::string name, std::string version,
    const std::function<bool(const core::OpVersion&, core::ElementType)>& runs) {
    static std::list<OpTableClaims> made;  // stable addresses, kept until the process exits
    return &made.emplace_back(std::move(name), std::move(version), runs).info;
}

void write_message(char* message, std::size_t capacity, std::string_view text) {
    if (!message || capacity == 0) return;
    const std::size_t n = std::min(text.size(), capacity - 1);
    std::memcpy(message, text.data(), n);
    message[n] = '\0';
}

void* allocate_output(const eltwise_output& out, std::string_view dtype, const core::Shape& shape,
                      char* message, std::size_t capacity) {
    const std::string type_name(dtype);
    void* buffer =
        out.allocate(out.ctx, type_name.c_str(), static_cast<int>(shape.size()), shape.data());
    if (!buffer) write_message(message, capacity, "the host could not allocate the output");
    return buffer;
}

int deliver(const eltwise_output& out, std::string_view dtype, const core::Shape& shape,
            std::span<const std::byte> bytes, char* message, std::size_t capacity) {
    void* buffer = allocate_output(out, dtype, shape, message, capacity);
    if (!buffer) return ELTWISE_ERROR;
    if (!bytes.empty()) std::memcpy(buffer, bytes.data(), bytes.size());
    return ELTWISE_OK;
}

int deliver(const eltwise_output& out, const core::Tensor& t, char* message, std::size_t capacity) {
    return deliver(out, core::name(t.type), t.shape, t.bytes, message, capacity);
}

}  // namespace plugins
