// libeltwise_xnnpack_plugin.so: XNNPACK's element-wise nd operators behind the C ABI
// (plugins/eltwise_backend.h), called the way a runtime that embeds XNNPACK calls
// them: xnn_initialize once, one operator per (arithmetic, type) created once with the output
// range -inf..+inf (no fused clamp), then setup + run per call. README.md has the mapping.
//
// Plugin arguments: [--threads N]  N = 1 (default): no threadpool, XNNPACK runs on the
// caller's thread; N > 1: a pthreadpool of N threads.
#include <xnnpack.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/adapters/converter_lowering.hpp"
#include "core/op_config.hpp"
#include "plugins/abi_adapter.hpp"
#include "plugins/eltwise_backend.h"

namespace backends::adapters::xnnpack {
namespace {

// The nd operators of this XNNPACK for the suite's ops. There is no xnn_create_divide_nd_f16
// (nor any f64, bf16 or integer multiply/divide): those pairs are not claimed.
enum Kernel { multiply_f32, multiply_f16, divide_f32, kernel_count };
constexpr const char* kKernelNames[kernel_count] = {"multiply_nd_f32", "multiply_nd_f16",
                                                    "divide_nd_f32"};

struct State {
    xnn_operator_t ops[kernel_count] = {};  // null where creation failed (e.g. no F16 hardware)
    pthreadpool_t threadpool = nullptr;
    // Reused between calls for their capacity only.
    plugins::CoreCall call;
    std::vector<std::byte> a, b, out;
};
State g;

const char* status_name(xnn_status s) {
    switch (s) {
        case xnn_status_success:
            return "xnn_status_success";
        case xnn_status_uninitialized:
            return "xnn_status_uninitialized";
        case xnn_status_invalid_parameter:
            return "xnn_status_invalid_parameter";
        case xnn_status_invalid_state:
            return "xnn_status_invalid_state";
        case xnn_status_unsupported_parameter:
            return "xnn_status_unsupported_parameter";
        case xnn_status_unsupported_hardware:
            return "xnn_status_unsupported_hardware";
        case xnn_status_out_of_memory:
            return "xnn_status_out_of_memory";
    }
    return "unknown xnn_status";
}

// XNNPACK's own verdict on a call as the ABI's status: its invalid_parameter is the library
// rejecting the inputs, unsupported_* is what it cannot run. (This build logs nothing, so the
// status name is the library's whole message.)
int answer_for(xnn_status s) {
    if (s == xnn_status_invalid_parameter) return ELTWISE_REJECTED;
    if (s == xnn_status_unsupported_parameter || s == xnn_status_unsupported_hardware)
        return ELTWISE_UNSUPPORTED;
    return ELTWISE_ERROR;
}

xnn_status create(Kernel k, xnn_operator_t* op) {
    // -inf..+inf: the plain product or quotient, as an unfused Mul/Div node is lowered.
    const float lo = -INFINITY, hi = INFINITY;
    switch (k) {
        case multiply_f32:
            return xnn_create_multiply_nd_f32(lo, hi, 0, op);
        case multiply_f16:
            return xnn_create_multiply_nd_f16(lo, hi, 0, op);
        default:
            return xnn_create_divide_nd_f32(lo, hi, 0, op);
    }
}

const char* kind_name(core::Arithmetic arithmetic) {
    return arithmetic == core::Arithmetic::multiply ? "multiply" : "divide";
}

std::optional<Kernel> kernel_for(core::Arithmetic arithmetic, core::ElementType t) {
    const bool multiply = arithmetic == core::Arithmetic::multiply;
    if (t == core::ElementType::f32) return multiply ? multiply_f32 : divide_f32;
    if (t == core::ElementType::f16 && multiply) return multiply_f16;
    return std::nullopt;
}

// Claims every (op version, type) whose operator exists and was created on this CPU.
const eltwise_backend_info* claims() {
    return plugins::claim_op_table("XNNPACK", ELTWISE_XNNPACK_VERSION,
                                   [](const core::OpVersion& op, core::ElementType t) {
                                       const auto k = kernel_for(op.arithmetic, t);
                                       return k && g.ops[*k];
                                   });
}

bool parse_threads(int argc, const char* const* argv, std::size_t& threads) {
    threads = 1;
    if (argc == 1) return true;
    if (argc != 3 || std::string_view(argv[1]) != "--threads") return false;
    const std::string_view v = argv[2];
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), threads);
    return ec == std::errc() && end == v.data() + v.size() && threads >= 1;
}

// XNNPACK may read XNN_EXTRA_BYTES past an input's end (xnnpack.h): each input is copied into
// a buffer that has them, as a runtime's tensor arena does.
void copy_padded(const core::Tensor& t, std::vector<std::byte>& into) {
    into.assign(t.bytes.size() + XNN_EXTRA_BYTES, std::byte{0});
    if (!t.bytes.empty()) std::memcpy(into.data(), t.bytes.data(), t.bytes.size());
}

// The lowered shapes as XNNPACK's nd setup takes them (the lowering has checked that no dim
// is negative).
struct NdShapes {
    std::vector<std::size_t> a, b;
    core::Shape output;
};

NdShapes nd_shapes(const LoweredShapes& s) {
    return {{s.a.begin(), s.a.end()}, {s.b.begin(), s.b.end()}, s.output};
}

xnn_status setup(Kernel k, const NdShapes& s) {
    const auto* a = g.a.data();
    const auto* b = g.b.data();
    auto* y = g.out.data();
    switch (k) {
        case multiply_f32:
            return xnn_setup_multiply_nd_f32(g.ops[k], s.a.size(), s.a.data(), s.b.size(),
                                             s.b.data(), reinterpret_cast<const float*>(a),
                                             reinterpret_cast<const float*>(b),
                                             reinterpret_cast<float*>(y), g.threadpool);
        case multiply_f16:
            return xnn_setup_multiply_nd_f16(g.ops[k], s.a.size(), s.a.data(), s.b.size(),
                                             s.b.data(), a, b, y, g.threadpool);
        default:
            return xnn_setup_divide_nd_f32(g.ops[k], s.a.size(), s.a.data(), s.b.size(), s.b.data(),
                                           reinterpret_cast<const float*>(a),
                                           reinterpret_cast<const float*>(b),
                                           reinterpret_cast<float*>(y), g.threadpool);
    }
}

int fail(const char* what, Kernel k, xnn_status s, const NdShapes& shapes, char* message,
         std::size_t capacity) {
    const auto shape = [](const std::vector<std::size_t>& d) {
        return core::to_string(core::Shape(d.begin(), d.end()));
    };
    plugins::write_message(message, capacity,
                           std::string("XNNPACK ") + what + kKernelNames[k] + ": " +
                               status_name(s) + " (input1 " + shape(shapes.a) + ", input2 " +
                               shape(shapes.b) + ")");
    return answer_for(s);
}

// Runs the operator on the padded inputs into g.out and hands the result to the host.
int compute(Kernel k, const NdShapes& shapes, const eltwise_output& out, char* message,
            std::size_t capacity) {
    const core::ElementType type = g.call.a.type;
    copy_padded(g.call.a, g.a);
    copy_padded(g.call.b, g.b);
    g.out.resize(static_cast<std::size_t>(core::element_count(shapes.output)) *
                 core::byte_size(type));
    if (const xnn_status s = setup(k, shapes); s != xnn_status_success)
        return fail("xnn_setup_", k, s, shapes, message, capacity);
    if (const xnn_status s = xnn_run_operator(g.ops[k], g.threadpool); s != xnn_status_success)
        return fail("xnn_run_operator on ", k, s, shapes, message, capacity);
    return plugins::deliver(out, core::name(type), shapes.output, g.out, message, capacity);
}

// The converter's checks in the specs' order (types, attributes, shapes), then XNNPACK.
int run(const eltwise_call& c, const eltwise_output& out, char* message, std::size_t capacity) {
    plugins::to_core(c, g.call);
    const core::OpVersion& op = *g.call.op;
    core::check_element_types(op, g.call.a.type, g.call.b.type);
    const core::OpConfig config = core::resolve_attributes(op, g.call.attributes);
    const NdShapes shapes =
        nd_shapes(lower_shapes(g.call.a.shape, g.call.b.shape, config.broadcast));
    const auto k = kernel_for(op.arithmetic, g.call.a.type);
    if (k && g.ops[*k]) return compute(*k, shapes, out, message, capacity);
    // No XNNPACK call to judge numpy shapes here: the converter's shape inference rejects
    // invalid ones before it finds that there is no operator for the type.
    core::broadcast_shape(g.call.a.shape, g.call.b.shape, config.broadcast);
    plugins::write_message(message, capacity,
                           "XNNPACK has no " + std::string(kind_name(op.arithmetic)) +
                               " operator for " + std::string(core::name(g.call.a.type)) +
                               " (nd operators: multiply f32/f16, divide f32)");
    return ELTWISE_UNSUPPORTED;
}

}  // namespace
}  // namespace backends::adapters::xnnpack

namespace xp = backends::adapters::xnnpack;

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* argv, char* message,
                                                 size_t message_capacity) {
    std::size_t threads = 1;
    if (!xp::parse_threads(argc, argv, threads)) {
        plugins::write_message(message, message_capacity, "usage: [--threads N], N >= 1");
        return nullptr;
    }
    if (const xnn_status s = xnn_initialize(nullptr); s != xnn_status_success) {
        plugins::write_message(message, message_capacity,
                               std::string("xnn_initialize failed: ") + xp::status_name(s));
        return nullptr;
    }
    if (threads > 1 && !(xp::g.threadpool = pthreadpool_create(threads))) {
        plugins::write_message(message, message_capacity, "pthreadpool_create failed");
        return nullptr;
    }
    for (int k = 0; k < xp::kernel_count; ++k)
        if (xp::create(xp::Kernel(k), &xp::g.ops[k]) != xnn_status_success) xp::g.ops[k] = nullptr;
    return xp::claims();
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    return plugins::guarded(message, message_capacity,
                            [&] { return xp::run(*call, *out, message, message_capacity); });
}

void eltwise_backend_shutdown(void) {
    for (xnn_operator_t& op : xp::g.ops) {
        if (op) xnn_delete_operator(op);
        op = nullptr;
    }
    if (xp::g.threadpool) pthreadpool_destroy(xp::g.threadpool);
    xp::g.threadpool = nullptr;
    xnn_deinitialize();
}
