#include "runner/run_config.hpp"

#include <algorithm>
#include <stdexcept>

#include "case_sources/case_sources.hpp"
#include "core/graph_form.hpp"

namespace runner {
namespace {

// Each text of a list option (--op, --dtype) as its value; throws naming the first unknown one.
template <class T, class Parse>
std::vector<T> parsed_list(const std::vector<std::string>& texts, const char* what, Parse parse) {
    std::vector<T> out;
    for (const std::string& text : texts) {
        const auto v = parse(text);
        if (!v) throw std::invalid_argument(std::string(what) + ": unknown '" + text + "'");
        out.push_back(*v);
    }
    return out;
}

// --nan, --ulp, --allow-ftz.
comparison::ComparisonPolicy policy_of(const RunOptions& o) {
    if (o.nan != "any" && o.nan != "strict")
        throw std::invalid_argument("--nan must be 'any' or 'strict', not '" + o.nan + "'");
    if (o.ulp < 0) throw std::invalid_argument("--ulp must be >= 0");
    comparison::ComparisonPolicy p;
    p.nan = o.nan == "strict" ? comparison::NanPolicy::strict : comparison::NanPolicy::any;
    p.ulp = o.ulp;
    p.allow_ftz = o.allow_ftz;
    return p;
}

// --graph-forms in the order given, each once (PROTOCOL.md section 9, item 16).
std::vector<std::string> graph_forms_of(const RunOptions& o) {
    std::vector<std::string> forms;
    for (const std::string& f : o.graph_forms) {
        if (!core::is_graph_form(f))
            throw std::invalid_argument("--graph-forms: unknown form '" + f +
                                        "' (runtime, const-a, const-b, const-ab, dynamic)");
        if (std::find(forms.begin(), forms.end(), f) == forms.end()) forms.push_back(f);
    }
    return forms;
}

// "rerun" or "deviation" (a resumed run's options come from its results file, unchecked by the
// command line).
bool undefined_refusal_is_deviation(const RunOptions& o) {
    if (o.undefined_refusal != "rerun" && o.undefined_refusal != "deviation")
        throw std::invalid_argument("--undefined-refusal must be 'rerun' or 'deviation', not '" +
                                    o.undefined_refusal + "'");
    return o.undefined_refusal == "deviation";
}

// --cases and --source name case sources (case_sources.hpp): an unknown one would plan or select
// nothing.
void check_sources(const RunOptions& o) {
    for (const std::string& name : o.cases)
        case_sources::check_source_name(name, "--cases");
    for (const std::string& name : o.sources)
        case_sources::check_source_name(name, "--source");
}

std::optional<const core::OpVersion*> op_named(std::string_view id) {
    const core::OpVersion* op = core::find_op_version(id);
    return op ? std::optional(op) : std::nullopt;
}

}  // namespace

RunConfig run_config(const RunOptions& o) {
    check_sources(o);
    return {
        .options = o,
        .backend = choose_backend(o.backend, o.backend_cmd, parse_platform(o.platform)),
        .shard = o.shard.empty() ? std::nullopt : std::optional(parse_shard(o.shard)),
        .graph_forms = graph_forms_of(o),
        .policy = policy_of(o),
        .undefined_refusal_is_deviation = undefined_refusal_is_deviation(o),
        .ops = parsed_list<const core::OpVersion*>(o.ops, "--op", op_named),
        .dtypes = parsed_list<core::ElementType>(o.dtypes, "--dtype", core::parse_element_type)};
}

}  // namespace runner
