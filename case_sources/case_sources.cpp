#include "case_sources/case_sources.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "case_sources/exhaustive16_cases.hpp"
#include "case_sources/pair_narrowing.hpp"
#include "case_sources/random_cases.hpp"

namespace case_sources {

const std::vector<std::string_view>& source_names() {
    static const std::vector<std::string_view> names = {
        "spec", "edge", "random", "invalid", "exhaustive8", "onnx", "exhaustive16"};
    return names;
}

// exhaustive16 (2^32 pairs per function) runs only when asked for.
const std::vector<std::string_view>& default_source_names() {
    static const std::vector<std::string_view> names(source_names().begin(),
                                                     source_names().end() - 1);
    return names;
}

std::vector<PlannedCase> plan_source(std::string_view source, const SourceOptions& options) {
    if (source == "spec") return plan_spec_cases(false);
    if (source == "edge") return plan_spec_cases(true);
    if (source == "random") return plan_random_cases(options.seed, options.count, options.claimed);
    if (source == "invalid") return plan_invalid_cases(options.seed, options.count);
    if (source == "exhaustive8") return plan_exhaustive8_cases();
    if (source == "onnx") return plan_onnx_cases(options.onnx_dirs);
    if (source == "exhaustive16") return plan_exhaustive16_cases();
    check_source_name(source);
    return {};  // not reached: check_source_name throws for every name not planned above
}

void check_source_name(std::string_view name, std::string_view what) {
    const std::vector<std::string_view>& names = source_names();
    if (std::find(names.begin(), names.end(), name) != names.end()) return;
    std::string known;
    for (std::string_view s : names)
        known += (known.empty() ? "" : ", ") + std::string(s);
    throw std::invalid_argument(std::string(what) + ": unknown '" + std::string(name) +
                                "' (known: " + known + ")");
}

std::optional<PlannedCase> plan_case(std::string_view id, const SourceOptions& options) {
    if (const auto narrowed = parse_pairs_id(id)) {
        std::optional<PlannedCase> c = plan_case(narrowed->base, options);
        if (c) c = narrowed_case(std::move(*c), narrowed->range);
        return c;
    }
    if (auto key = parse_random_case_id(id)) {
        const RandomCaseKey k = *key;
        return PlannedCase{
            std::string(id),     "random", k.combination->op,
            k.combination->type, true,     [k] { return case_data(random_case(k)); }};
    }
    if (auto key = parse_exhaustive16_case_id(id)) return exhaustive16_planned_case(*key);
    const std::string_view source = id.substr(0, id.find(':'));
    for (PlannedCase& c : plan_source(source, options))
        if (c.id == id) return std::move(c);
    return std::nullopt;
}

}  // namespace case_sources
