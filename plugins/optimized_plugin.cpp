// libeltwise_optimized_plugin.so: optimized::run behind the C ABI, claiming every (op version,
// type) of the op table. Plugin arguments: [--threads N] (OpenMP threads; default: all).
//
// No copies: the kernels read the inputs where the host mapped them and write the result into
// the host's output buffer (the validator's shared memory, when it offers it).
#include <charconv>
#include <string>
#include <string_view>

#include "optimized/run.hpp"
#include "plugins/abi_adapter.hpp"
#include "plugins/eltwise_backend.h"

namespace {

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
        plugins::write_message(
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
    return plugins::claim_whole_op_table("optimized-plugin", ELTWISE_PROJECT_VERSION);
}

int eltwise_backend_run(const eltwise_call* call, const eltwise_output* out, char* message,
                        size_t message_capacity) {
    return plugins::guarded(message, message_capacity, [&] {
        const plugins::CoreView c = plugins::to_core_view(*call);
        const core::PreparedCall prepared =
            core::prepare_call(*c.op, c.attributes, c.a.type, c.a.shape, c.b.type, c.b.shape);
        const core::Shape& shape = prepared.plan.output;
        void* buffer = plugins::allocate_output(*out, core::name(prepared.type), shape, message,
                                                message_capacity);
        if (!buffer) return ELTWISE_ERROR;
        const auto bytes =
            static_cast<std::size_t>(core::element_count(shape)) * core::byte_size(prepared.type);
        optimized::run_to(prepared, c.a, c.b, {static_cast<std::byte*>(buffer), bytes}, g_threads);
        return ELTWISE_OK;
    });
}

void eltwise_backend_shutdown(void) {}
