#include "judging/undefined_rerun.hpp"

#include <algorithm>
#include <bit>
#include <span>
#include <utility>

namespace judging {

bool refused_with_undefined(const CaseResult& r, bool valid) {
    const results::Status s = r.verdict.status;
    return valid && !r.expected.undefined.empty() &&
           (s == results::Status::rejected_valid || s == results::Status::error);
}

core::Tensor with_defined_divisors(const core::Tensor& b) {
    core::Tensor out = b;
    if (core::is_floating(b.type)) return out;
    const std::size_t size = core::byte_size(b.type);
    for (std::size_t i = 0; i + size <= out.bytes.size(); i += size) {
        const auto element = std::span(out.bytes).subspan(i, size);
        if (std::all_of(element.begin(), element.end(),
                        [](std::byte x) { return x == std::byte{0}; }))
            element[std::endian::native == std::endian::little ? 0 : size - 1] = std::byte{1};
    }
    return out;
}

CaseResult settle_rerun(CaseResult rerun, const CaseResult& refused, core::Tensor defined_b) {
    const auto undefined = static_cast<std::int64_t>(refused.expected.undefined.size());
    const std::string refusal =
        refused.verdict.status == results::Status::error ? "failed" : "rejected";
    const std::string what =
        refusal + " the call, which has " + std::to_string(undefined) +
        " undefined elements (integer division by zero): " + refused.verdict.message;
    results::Verdict& v = rerun.verdict;
    if (v.status == results::Status::passed) {
        v.status = results::Status::refused_undefined;
        v.message = "the backend " + what + " | re-run with divisor 1 there: every defined " +
                    "element matches";
    } else if (v.status == results::Status::failed ||
               v.status == results::Status::deviates_as_declared) {
        v.message = "re-run with divisor 1 where the backend " + what + " | " + v.message;
    } else {
        // The re-run has no undefined elements, so what ended it is its own fault.
        v.message = "the call has " + std::to_string(undefined) +
                    " undefined elements (integer division by zero) and the backend " + refusal +
                    " it: " + refused.verdict.message +
                    " | the re-run with every zero divisor made 1 ended " +
                    std::string(results::name(v.status)) +
                    " too, so the undefined elements are not the cause: " + v.message;
    }
    rerun.undefined_refused = undefined;
    rerun.compilations += refused.compilations;
    rerun.defined_b = std::move(defined_b);
    return rerun;
}

void keep_refusal(CaseResult& refused) {
    refused.verdict.message += " | the call has " +
                               std::to_string(refused.expected.undefined.size()) +
                               " undefined elements (integer division by zero); counted as a " +
                               "deviation (--undefined-refusal deviation)";
}

}  // namespace judging
