#include "reference/run.hpp"

#include <stdexcept>

#include "reference/divide.hpp"
#include "reference/multiply.hpp"

namespace reference {
namespace {

// Visits every output element in row-major order with the offsets of its A and B elements.
template <class F>
void for_each_element(const core::BroadcastPlan& plan, F&& f) {
    const std::int64_t count = core::element_count(plan.output);
    std::vector<std::int64_t> index(plan.output.size(), 0);
    for (std::int64_t i = 0; i < count; ++i) {
        std::int64_t a = 0, b = 0;
        for (std::size_t d = 0; d < index.size(); ++d) {
            a += index[d] * plan.a_strides[d];
            b += index[d] * plan.b_strides[d];
        }
        f(i, a, b);
        for (std::size_t d = index.size(); d-- > 0;) {
            if (++index[d] < plan.output[d]) break;
            index[d] = 0;
        }
    }
}

template <class T>
Output evaluate(const core::PreparedCall& call, const core::Tensor& a, const core::Tensor& b) {
    Output out{core::Tensor::zeros(call.type, call.plan.output), {}};
    const auto x = a.values<T>();
    const auto y = b.values<T>();
    auto z = out.value.values<T>();
    const bool is_multiply = call.op->arithmetic == core::Arithmetic::multiply;
    for_each_element(call.plan, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        if (is_multiply) {
            z[i] = multiply(x[ia], y[ib]);
            return;
        }
        const Quotient<T> q = divide(x[ia], y[ib], call.config.rounding);
        z[i] = q.value;
        if (q.undefined) out.undefined.push_back(i);
    });
    return out;
}

}  // namespace

Output run(const core::OpVersion& op, const core::AttributeMap& attributes, const core::Tensor& a,
           const core::Tensor& b) {
    return run_prepared(core::prepare_call(op, attributes, a, b), a, b);
}

Output run_prepared(const core::PreparedCall& call, const core::Tensor& a, const core::Tensor& b) {
    return core::dispatch(call.type, [&](auto tag) -> Output {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            throw std::logic_error("reference::run reached a boolean tensor");
        } else {
            return evaluate<T>(call, a, b);
        }
    });
}

}  // namespace reference
