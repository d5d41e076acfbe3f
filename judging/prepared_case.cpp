#include "judging/prepared_case.hpp"

#include "backends/protocol.hpp"
#include "core/error.hpp"
#include "optimized/run.hpp"
#include "reference/run.hpp"

namespace judging {
namespace {

constexpr std::int64_t kReferenceLimit = std::int64_t{1} << 20;

}  // namespace

PreparedCase prepare_case(const core::OpVersion& op, const core::CaseRecord& data) {
    PreparedCase p{&op, &data, std::nullopt, 0, "other", ""};
    try {
        p.call = core::prepare_call(op, data.attributes, data.a, data.b);
        p.elements = core::element_count(p.call->plan.output);
    } catch (const core::Error& e) {
        p.invalidity = backends::rejection_reason(e.kind());
        p.error = e.what();
    }
    return p;
}

std::int64_t output_elements(const PreparedCase& p) {
    if (!p.call) throw core::Error(core::ErrorKind::input, p.error);
    return p.elements;
}

core::OpOutput expected_output(const PreparedCase& p) {
    if (p.data->expected.output) return *p.data->expected.output;
    if (output_elements(p) > kReferenceLimit)
        return optimized::run_prepared(*p.call, p.data->a, p.data->b);
    return reference::run_prepared(*p.call, p.data->a, p.data->b);
}

}  // namespace judging
