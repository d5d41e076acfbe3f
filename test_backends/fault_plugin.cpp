// libeltwise_fault_plugin.so: a correct backend (optimized::run, every op version and type)
// that misbehaves on purpose, so that the host and the validator can be tested against each
// failure a real backend may show.
//
// Plugin arguments:  --fault NAME [--on-op OP_ID] [--on-dtype TYPE]
// The fault fires on every call whose op-version id is OP_ID and whose input A has element
// type TYPE (each filter, when absent, matches everything); other calls are computed correctly.
//   crash-segv      the process dies of SIGSEGV (a store to address 0)
//   crash-fpe       the process dies of SIGFPE (an integer division by zero)
//   crash-abrt      abort()
//   hang            sleeps forever
//   exit            exit(3) in the middle of the call
//   stdout-garbage  prints a line that is not JSON to stdout, then answers correctly
//   wrong-shape     the correct values in an output whose shape has an extra trailing 1
//                   (rank 16: the flattened shape)
//   wrong-dtype     the correct bits in an output of another type of the same size
//                   (i32 <-> u32 and so on, f16 <-> bf16, f32 -> i32, f64 -> i64)
//   no-output       returns ok without allocating an output
// Faults of the start-up (no filters apply):
//   init-fail       eltwise_backend_init returns NULL with a message
//   bad-abi         the info reports ABI version 999
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <unistd.h>

#include "optimized/run.hpp"
#include "plugins/abi_adapter.hpp"
#include "plugins/eltwise_backend.h"

namespace {

using plugins::write_message;

struct Options {
    std::string fault;
    std::string on_op;     // empty: every op
    std::string on_dtype;  // empty: every type
};

Options g_options;
plugins::CoreCall g_call;
core::OpOutput g_result;
eltwise_backend_info g_bad_abi_info{};

constexpr std::string_view kRunFaults[] = {"crash-segv",  "crash-fpe",   "crash-abrt",
                                           "hang",        "exit",        "stdout-garbage",
                                           "wrong-shape", "wrong-dtype", "no-output"};

bool known_fault(std::string_view name) {
    for (std::string_view f : kRunFaults)
        if (f == name) return true;
    return name == "init-fail" || name == "bad-abi";
}

bool parse_arguments(int argc, const char* const* argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string_view flag = argv[i];
        std::string* field = flag == "--fault"      ? &g_options.fault
                             : flag == "--on-op"    ? &g_options.on_op
                             : flag == "--on-dtype" ? &g_options.on_dtype
                                                    : nullptr;
        if (!field) return false;
        *field = argv[i + 1];
    }
    return argc % 2 == 1 && known_fault(g_options.fault);
}

// Machine code rather than C++: a null store or a division by zero is undefined behaviour in
// C++, which the compiler may assume away; the instruction itself faults as the hardware says.
[[noreturn]] void crash_segv() {
#if defined(__x86_64__)
    asm volatile("movl $1, (%0)" : : "r"(std::uintptr_t{0}) : "memory");
#endif
    std::raise(SIGSEGV);
    std::abort();
}

[[noreturn]] void crash_fpe() {
#if defined(__x86_64__)
    asm volatile("xorl %%ecx, %%ecx\n\tmovl $1, %%eax\n\tcltd\n\tidivl %%ecx"
                 :
                 :
                 : "eax", "ecx", "edx", "cc");
#endif
    std::raise(SIGFPE);
    std::abort();
}

[[noreturn]] void hang() {
    for (;;)
        pause();
}

// Same size, another type: what a backend that mislabels its output sends.
core::ElementType other_type(core::ElementType t) {
    using E = core::ElementType;
    switch (t) {
        case E::i8:
            return E::u8;
        case E::i16:
            return E::u16;
        case E::i32:
            return E::u32;
        case E::i64:
            return E::u64;
        case E::u8:
            return E::i8;
        case E::u16:
            return E::i16;
        case E::u32:
            return E::i32;
        case E::u64:
            return E::i64;
        case E::f16:
            return E::bf16;
        case E::bf16:
            return E::f16;
        case E::f32:
            return E::i32;
        case E::f64:
            return E::i64;
        case E::boolean:
            return E::u8;
    }
    return E::u8;
}

core::Shape wrong_shape(const core::Shape& shape) {
    if (shape.size() < core::kMaxRank) {
        core::Shape longer = shape;
        longer.push_back(1);
        return longer;
    }
    return {core::element_count(shape)};
}

bool matches(const eltwise_call& call) {
    return (g_options.on_op.empty() || g_options.on_op == call.op) &&
           (g_options.on_dtype.empty() || g_options.on_dtype == call.a.dtype);
}

// The faults that strike before anything is computed; returns for the others.
void strike_early(std::string_view fault) {
    if (fault == "crash-segv") crash_segv();
    if (fault == "crash-fpe") crash_fpe();
    if (fault == "crash-abrt") std::abort();
    if (fault == "hang") hang();
    if (fault == "exit") std::exit(3);
    if (fault == "stdout-garbage") {
        std::printf("fault plugin: this line is not JSON\n");
        std::fflush(stdout);
    }
}

int compute(const eltwise_call& call, const eltwise_output& out, bool faulty, char* message,
            std::size_t capacity) {
    plugins::to_core(call, g_call);
    optimized::run_into(*g_call.op, g_call.attributes, g_call.a, g_call.b, g_result);
    const core::Tensor& v = g_result.value;
    // A view of the option itself: `faulty ? g_options.fault : ""` would be a temporary string.
    const std::string_view fault = faulty ? std::string_view(g_options.fault) : std::string_view();
    if (fault == "no-output") return ELTWISE_OK;
    if (fault == "wrong-shape")
        return plugins::deliver(out, core::name(v.type), wrong_shape(v.shape), v.bytes, message,
                                capacity);
    if (fault == "wrong-dtype")
        return plugins::deliver(out, core::name(other_type(v.type)), v.shape, v.bytes, message,
                                capacity);
    return plugins::deliver(out, v, message, capacity);
}

}  // namespace

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* argv, char* message,
                                                 size_t message_capacity) {
    if (!parse_arguments(argc, argv)) {
        write_message(message, message_capacity,
                      "usage: --fault NAME [--on-op OP_ID] [--on-dtype TYPE] (see "
                      "test_backends/fault_plugin.cpp for the names)");
        return nullptr;
    }
    if (g_options.fault == "init-fail") {
        write_message(message, message_capacity, "init-fail: the plugin refuses to start");
        return nullptr;
    }
    const eltwise_backend_info* info = plugins::claim_whole_op_table("fault", "1");
    if (g_options.fault != "bad-abi") return info;
    g_bad_abi_info = *info;
    g_bad_abi_info.abi_version = 999;
    return &g_bad_abi_info;
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    const bool faulty = matches(*call);
    if (faulty) strike_early(g_options.fault);
    return plugins::guarded(message, message_capacity, [&] {
        return compute(*call, *out, faulty, message, message_capacity);
    });
}
