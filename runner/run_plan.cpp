#include "runner/run_plan.hpp"
#include "platform/host_platform.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "backends/process_backend.hpp"
#include "core/graph_form.hpp"
#include "runner/results_lines.hpp"
#include "runner/sharding.hpp"

namespace runner {
namespace {

using case_sources::PlannedCase;

std::string now_text() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

// --graph-forms, in the order given, less the forms the backend does not build.
std::vector<std::string> built_forms(const RunConfig& config, const backends::Hello& hello) {
    std::vector<std::string> forms;
    for (const std::string& f : config.graph_forms)
        if (hello.builds(f)) forms.push_back(f);
    return forms;
}

}  // namespace

backends::Hello claiming_everything() {
    backends::Hello hello;
    for (const core::OpVersion& op : core::op_versions())
        hello.ops[op.id()] = op.element_types;
    hello.graph_forms.assign(std::begin(core::kGraphForms), std::end(core::kGraphForms));
    return hello;
}

case_sources::PlannedCase in_form(case_sources::PlannedCase c, const std::string& form) {
    if (form == backends::kRuntimeForm) return c;
    c.id = form + "/" + c.id;
    c.graph_form = form;
    c.build = [build = std::move(c.build), form] {
        core::CaseRecord d = build();
        d.graph_form = form;
        return d;
    };
    return c;
}

std::vector<case_sources::PlannedCase> plan_run(const RunConfig& config,
                                                const case_sources::SourceOptions& sources,
                                                const backends::Hello& hello) {
    const RunOptions& o = config.options;
    const std::vector<std::string> forms = built_forms(config, hello);
    std::vector<case_sources::PlannedCase> planned;
    for (const std::string& id : o.case_ids) {
        const std::string_view base = core::runtime_id(id);
        const std::string form(base.size() == id.size()
                                   ? backends::kRuntimeForm
                                   : std::string_view(id).substr(0, id.size() - base.size() - 1));
        auto c = case_sources::plan_case(base, sources);
        if (!c) throw std::invalid_argument("--case: no case '" + id + "'");
        if (!hello.builds(form))
            throw std::invalid_argument("--case " + id +
                                        ": the backend does not build graph form " + form);
        planned.push_back(in_form(std::move(*c), form));
    }
    if (o.case_ids.empty()) {
        std::vector<std::string_view> names(o.cases.begin(), o.cases.end());
        if (names.empty()) names = case_sources::default_source_names();
        for (std::string_view source : names)
            for (case_sources::PlannedCase& c : case_sources::plan_source(source, sources))
                for (const std::string& form : forms)  // the forms of one case side by side
                    planned.push_back(in_form(c, form));
    }
    std::erase_if(planned, [&](const case_sources::PlannedCase& c) {
        const auto has = [](const auto& list, const auto& v) {
            return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
        };
        return !has(config.ops, c.op) || !has(config.dtypes, c.dtype) ||
               !has(o.sources, c.source) || (config.shard && !in_shard(c.id, *config.shard));
    });
    return planned;
}

bool claimed(const backends::Hello& hello, const case_sources::PlannedCase& c, bool valid) {
    if (!c.op) return true;  // the case cannot be built: let it end as ERROR
    return valid ? hello.claims(c.op->id(), c.dtype) : hello.claims(c.op->id());
}

namespace {

// A path as an absolute one: a replay line works from any directory.
std::string absolute_text(const std::string& path) {
    return std::filesystem::absolute(path).lexically_normal().string();
}

// A directory of its own, so that replaying does not replace the run's results and reports:
// `<out>/replay`, or `<out>` itself when the run was a replay there (its replay line is then the
// command that made it).
std::string replay_directory(const RunOptions& o) {
    const std::filesystem::path out = std::filesystem::path(o.out).lexically_normal();
    const bool replaying = !o.case_ids.empty() &&
                           (out.filename() == "replay" ||
                            (out.filename().empty() && out.parent_path().filename() == "replay"));
    return replaying ? o.out : o.out + "/replay";
}

}  // namespace

// The command that reruns one case with the same backend, policy, profile, expectations and
// platform: what decides its verdict.
std::string replay_line(const RunOptions& o, const std::string& id) {
    using backends::shell_quoted;
    std::string line = "eltwise-validate run";
    line += o.backend_cmd.empty() ? " --backend " + o.backend
                                  : " --backend-cmd " + shell_quoted(o.backend_cmd);
    if (o.platform != "host") line += " --platform " + shell_quoted(o.platform);
    // The adapter's own files apply by default (adapter_files.hpp): named only when given.
    if (o.profile && !o.profile_from_adapter)
        line += " --profile " + shell_quoted(absolute_text(*o.profile));
    if (o.expected && !o.expected_from_adapter)
        line += " --expected " + shell_quoted(absolute_text(*o.expected));
    if (o.nan != "any") line += " --nan " + o.nan;
    if (o.ulp) line += " --ulp " + std::to_string(o.ulp);
    if (o.allow_ftz) line += " --allow-ftz";
    if (o.undefined_refusal != "rerun") line += " --undefined-refusal " + o.undefined_refusal;
    if (o.timeout_seconds != RunOptions{}.timeout_seconds)  // a HUNG case hangs at its timeout
        line += " --timeout " + (std::ostringstream() << o.timeout_seconds).str();
    if (o.no_profile) line += " --no-profile";
    for (const std::string& d : o.onnx_dirs)
        if (core::runtime_id(id).starts_with("onnx:")) line += " --onnx-dir " + shell_quoted(d);
    line += " --out " + shell_quoted(replay_directory(o));
    return line + " --case " + shell_quoted(id);
}

results::RunLine run_line(const RunConfig& config, const platform::Platform& p,
                          const backends::Hello* hello, const std::string& error) {
    const RunOptions& o = config.options;
    results::RunLine run;
    run.validator = "eltwise-validate " ELTWISE_VERSION;
    run.command_line = o.command_line;
    run.seed = o.seed;
    run.count = o.count;
    run.started = now_text();
    run.nan = o.nan;
    run.ulp = o.ulp;
    run.allow_ftz = o.allow_ftz;
    run.undefined_refusal = o.undefined_refusal;
    run.backend_command = o.backend_cmd.empty() ? "--backend " + o.backend : o.backend_cmd;
    run.label = o.label;
    run.options = o;  // what `run --resume` needs to plan and judge the same cases
    run.directory = std::filesystem::current_path().string();
    if (config.shard) run.shard = config.shard->text();
    if (hello)
        run.backend = results::backend_record(nlohmann::json::parse(backends::to_line(*hello)));
    run.platform = results::PlatformRecord{p.os,
                                           p.arch,
                                           p.vendor,
                                           p.model,
                                           p.features,
                                           p.isa_cap,
                                           p.name == "host" ? "" : p.name,
                                           p.emulator,
                                           p.gpu};
    run.error = error;
    return run;
}

}  // namespace runner
