// libeltwise_optimized_plugin.so: optimized::run behind the C ABI, claiming every (op version,
// type) of the op table. Plugin arguments: [--threads N] (OpenMP threads; default: all).
//
// Copies: the inputs once into core::Tensor (it owns its bytes), the result once from a reused
// core::OpOutput into the host's mapped output file. optimized::run_into reuses that OpOutput
// when consecutive calls have the same output type and shape, so a benchmark loop allocates
// nothing after its first call.
#include <charconv>
#include <string>
#include <string_view>

#include "backends/include/eltwise_backend.h"
#include "backends/plugins/abi_adapter.hpp"
#include "optimized/run.hpp"

namespace {

// Kept between calls only to reuse their buffers; no answer depends on what they held.
backends::plugins::CoreCall g_call;
core::OpOutput g_result;
int g_threads = 0;  // < 1: optimized::thread_count()

bool parse_arguments(int argc, const char* const* argv, char* message, std::size_t capacity) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--threads" && i + 1 < argc) {
            const std::string_view value = argv[++i];
            const auto [end, ec] =
                std::from_chars(value.data(), value.data() + value.size(), g_threads);
            if (ec == std::errc() && end == value.data() + value.size() && g_threads > 0) continue;
        }
        backends::plugins::write_message(
            message, capacity,
            "bad argument '" + std::string(arg) + "' (usage: [--threads N], N >= 1)");
        return false;
    }
    return true;
}

}  // namespace

const eltwise_backend_info* eltwise_backend_init(int argc, const char* const* argv, char* message,
                                                 size_t message_capacity) {
    if (!parse_arguments(argc, argv, message, message_capacity)) return nullptr;
    return backends::plugins::claim_whole_op_table("optimized-plugin", ELTWISE_PROJECT_VERSION);
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    return backends::plugins::guarded(message, message_capacity, [&] {
        backends::plugins::to_core(*call, g_call);
        optimized::run_into(*g_call.op, g_call.attributes, g_call.a, g_call.b, g_result, g_threads);
        return backends::plugins::deliver(*out, g_result.value, message, message_capacity);
    });
}

void eltwise_backend_shutdown(void) {
    g_call = {};
    g_result = {};
}
