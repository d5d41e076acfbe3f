#include "optimized/run.hpp"

#include <omp.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "optimized/kernels.hpp"
#include "optimized/tile_executor.hpp"

namespace optimized {
namespace {

std::atomic<int> g_threads{0};  // < 1: omp_get_max_threads()

Operation operation_of(const core::PreparedCall& call) {
    if (call.op->arithmetic == core::Arithmetic::multiply) return Operation::multiply;
    return core::floors(call.config.rounding) ? Operation::divide_floor
                                              : Operation::divide_truncate;
}

// reference::run indexes the buffers by shape; a short buffer would be read out of bounds.
void check_storage(const core::TensorView& t, const char* which) {
    if (t.size() != core::element_count(t.shape))
        throw core::Error(core::ErrorKind::input, std::string("input ") + which + " of shape " +
                                                      core::to_string(t.shape) + " holds " +
                                                      std::to_string(t.size()) + " elements");
}

}  // namespace

void set_thread_count(int n) {
    g_threads.store(n, std::memory_order_relaxed);
}

int thread_count() {
    const int n = g_threads.load(std::memory_order_relaxed);
    return n > 0 ? n : omp_get_max_threads();
}

void run_into(const core::OpVersion& op, const core::AttributeMap& attributes,
              const core::Tensor& a, const core::Tensor& b, core::OpOutput& out, int threads) {
    const core::PreparedCall call = core::prepare_call(op, attributes, a, b);
    if (out.value.type != call.type || out.value.shape != call.plan.output ||
        out.value.size() != core::element_count(call.plan.output))
        out.value =
            core::Tensor::uninitialized(call.type, call.plan.output);  // execute() writes all
    out.undefined = run_to(call, a, b, out.value.bytes, threads);
}

core::OpOutput run_prepared(const core::PreparedCall& call, const core::Tensor& a,
                            const core::Tensor& b) {
    core::OpOutput out{core::Tensor::uninitialized(call.type, call.plan.output), {}};
    out.undefined = run_to(call, a, b, out.value.bytes);  // writes every element
    return out;
}

std::vector<std::int64_t> run_to(const core::PreparedCall& call, const core::TensorView& a,
                                 const core::TensorView& b, std::span<std::byte> out, int threads) {
    check_storage(a, "A");
    check_storage(b, "B");
    const auto count = static_cast<std::size_t>(core::element_count(call.plan.output));
    if (a.type != call.type || b.type != call.type ||
        out.size() != count * core::byte_size(call.type))
        throw std::logic_error("optimized::run_to: the tensors do not fit the call");
    const int workers = threads > 0 ? threads : thread_count();
    const Isa isa = active_isa();
    std::vector<std::int64_t> undefined;
    core::dispatch(call.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            throw std::logic_error("optimized::run reached a boolean tensor");
        } else {
            if (reinterpret_cast<std::uintptr_t>(out.data()) % alignof(T) != 0)
                throw std::logic_error("optimized::run_to: the output is not aligned");
            execute<T>(call.plan, operation_of(call), a.values<T>().data(), b.values<T>().data(),
                       reinterpret_cast<T*>(out.data()), workers, isa, undefined);
        }
    });
    return undefined;
}

core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b, int threads) {
    core::OpOutput out;
    run_into(op, attributes, a, b, out, threads);
    return out;
}

core::OpOutput run(const core::OpVersion& op, const core::AttributeMap& attributes,
                   const core::Tensor& a, const core::Tensor& b) {
    return run(op, attributes, a, b, 0);
}

}  // namespace optimized
