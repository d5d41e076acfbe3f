#include "judging/prepared_case.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "backends/protocol.hpp"
#include "comparison/output_comparison.hpp"
#include "core/element_text.hpp"
#include "core/error.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "optimized/run.hpp"
#include "oracle/run.hpp"
#include "reference/run.hpp"

namespace judging {
namespace {

constexpr std::int64_t kReferenceLimit = std::int64_t{1} << 20;

// `samples` indices of [0, n), one in each of `samples` equal stretches, at a place that moves
// within the stretch from one to the next (so that a pattern with the stretch's period is not
// always met at one phase); the first is 0 and the last n - 1.
std::vector<std::int64_t> spread_indices(std::int64_t n, std::int64_t samples) {
    const std::int64_t k = std::min(n, samples);
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < k; ++i)
        out.push_back(i * (n / k) + (i * 40503) % (n / k));
    if (k > 0) out.back() = n - 1;
    return out;
}

std::string bits_text(bool undefined, std::uint64_t bits) {
    if (undefined) return "undefined";
    std::ostringstream s;
    s << "bits 0x" << std::hex << bits;
    return s.str();
}

}  // namespace

PreparedCase prepare_case(const core::OpVersion& op, const core::CaseRecord& data) {
    PreparedCase p{&op, &data, std::nullopt, 0, "other", "", {&op, data.a.type, {}, {}}};
    try {
        p.call = core::prepare_call(op, data.attributes, data.a, data.b);
        p.elements = core::element_count(p.call->plan.output);
    } catch (const core::Error& e) {
        p.invalidity = backends::rejection_reason(e.kind());
        p.error = e.what();
        try {
            p.rejected_scope.config = core::resolve_attributes(op, data.attributes);
        } catch (const core::Error&) {
        }
    }
    return p;
}

std::int64_t output_elements(const PreparedCase& p) {
    if (!p.call) throw core::Error(core::ErrorKind::input, p.error);
    return p.elements;
}

core::OpOutput expected_output(const PreparedCase& p) {
    if (p.data->expected.output) return *p.data->expected.output;
    if (output_elements(p) <= kReferenceLimit)
        return reference::run_prepared(*p.call, p.data->a, p.data->b);
    core::OpOutput out = optimized::run_prepared(*p.call, p.data->a, p.data->b);
    check_against_oracle(p, out, kOracleSamples);
    return out;
}

void check_against_oracle(const PreparedCase& p, const core::OpOutput& expected,
                          std::int64_t samples) {
    const core::CaseRecord& data = *p.data;
    const std::vector<std::int64_t> at = spread_indices(output_elements(p), samples);
    const std::vector<oracle::Element> want =
        oracle::run_at(*p.op, data.attributes, data.a, data.b, at);
    const core::ElementType t = expected.value.type;
    for (std::size_t j = 0; j < at.size(); ++j) {
        const bool undefined =
            std::binary_search(expected.undefined.begin(), expected.undefined.end(), at[j]);
        const std::uint64_t bits = undefined ? 0 : core::element_bits(expected.value, at[j]);
        if (undefined == want[j].undefined &&
            (undefined || comparison::same_element(t, bits, want[j].bits)))
            continue;
        throw std::logic_error("the validator's expected output (its optimized kernels, " +
                               std::string(optimized::name(optimized::active_isa())) + ") is " +
                               bits_text(undefined, bits) + " at element " + std::to_string(at[j]) +
                               ", the oracle's " + bits_text(want[j].undefined, want[j].bits));
    }
}

}  // namespace judging
