// eltwise-validate: what the specs say Mul and Div must give, and whether implementations agree.
#include <CLI/CLI.hpp>
#include <iostream>

#include "backends/process_backend.hpp"
#include "case_sources/case_sources.hpp"
#include "core/large_buffers.hpp"
#include "optimized/cpu_dispatch.hpp"
#include "runner/backend_choice.hpp"
#include "runner/openmp_wait_policy.hpp"
#include "validator/commands.hpp"

namespace {

std::string joined(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::string_view n : names)
        out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

// Appends comma-separated values to a list option (--cases spec,edge --cases random).
CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<std::string>& list,
                      const std::string& help) {
    return app.add_option(name, list, help)->delimiter(',');
}

// The options that select cases: run's, and export's.
void add_case_filters(CLI::App& run, runner::RunOptions& o) {
    add_list(run, "--cases", o.cases,
             "Case sources: " + joined(case_sources::source_names()) +
                 " (default: " + joined(case_sources::default_source_names()) + ")");
    add_list(run, "--op", o.ops, "Only these op versions (e.g. onnx.Div-14)");
    add_list(run, "--dtype", o.dtypes, "Only these element types of input A");
    add_list(run, "--source", o.sources, "Only cases of these sources");
    run.add_option("--case", o.case_ids, "Replay exactly this case id (repeatable)");
    run.add_option("--onnx-dir", o.onnx_dirs,
                   "ONNX node-test dir, or a dir of them, for the onnx source (repeatable)");
    run.add_option("--seed", o.seed, "Seed of the random and invalid cases")->capture_default_str();
    run.add_option("--count", o.count, "Random cases per (op version, type, rule)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
}

void add_run_options(CLI::App& run, runner::RunOptions& o) {
    auto* backend =
        run.add_option("--backend", o.backend,
                       "A built-in backend or an adapter by name: " + runner::backend_names() +
                           " (see list --backends)");
    auto* command = run.add_option("--backend-cmd", o.backend_cmd,
                                   "Out-of-process backend command (eltwise-backend/1)");
    backend->excludes(command);
    add_case_filters(run, o);
    run.add_option("--shard", o.shard,
                   "Run only part K of N (1 <= K <= N): disjoint, deterministic by case id; "
                   "`report` merges the parts");
    run.add_flag("--list-cases", o.list_cases,
                 "Print the ids of the cases the other options select, one per line, and exit, "
                 "without starting the backend: the cases planned for a backend that claims "
                 "every (op version, type) and builds every graph form");
    run.add_option("--shrink-budget", o.shrink_budget, "Backend calls spent shrinking a failure")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run.add_option("--progress-seconds", o.progress_seconds,
                   "Off a terminal, a progress line on stderr this often (on a terminal the "
                   "line is rewritten in place)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run.add_option("--shrink-seconds", o.shrink_seconds,
                   "Wall time spent shrinking a failure, in seconds (each try of a crash "
                   "restarts the backend)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run.add_option("--timeout", o.timeout_seconds,
                   "Seconds per case, scaled up for cases above 64 MiB")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    run.add_option("--nan", o.nan, "NaN comparison: any (every NaN equal) or strict (bits)")
        ->capture_default_str()
        ->check(CLI::IsMember({"any", "strict"}));
    run.add_option("--ulp", o.ulp, "Accept float results within N units in the last place")
        ->check(CLI::NonNegativeNumber);
    run.add_flag("--allow-ftz", o.allow_ftz, "Accept flush-to-zero / denormals-are-zero results");
    add_list(run, "--graph-forms", o.graph_forms,
             "Run each case in each of these graph forms that the backend builds: runtime, "
             "const-a, const-b, const-ab, dynamic (default: runtime)");
    run.add_option("--undefined-refusal", o.undefined_refusal,
                   "A valid call refused or failed while it has undefined elements (integer "
                   "division by zero): rerun (REFUSED_UNDEFINED when it then matches) or "
                   "deviation (REJECTED_VALID or ERROR, as the backend answered)")
        ->capture_default_str()
        ->check(CLI::IsMember({"rerun", "deviation"}));
    run.add_option("--out", o.out,
                   "Output directory: results.jsonl, junit.xml, report.html and repro files")
        ->capture_default_str();
    run.add_option("--label", o.label,
                   "The backend's name in reports (default: its hello's name and version)");
    run.add_option("--expected", o.expected,
                   "Expected deviations (PATTERN STATUS lines); default for an adapter: its own "
                   "expected.txt");
    run.add_option("--platform", o.platform,
                   "Where the adapter runs: host; avx2 (its library capped through its own ISA "
                   "knob, e.g. oneDNN's ONEDNN_MAX_CPU_ISA); x86-<QEMU CPU model>, e.g. "
                   "x86-EPYC-Milan, and arm64 or arm64-<QEMU CPU model> (emulated, after "
                   "scripts/install_dependencies.sh --platform x86 or arm64). The platform "
                   "facts are those of the CPU it ran on (docs/platforms.md)")
        ->capture_default_str();
    run.add_option_function<std::string>(
           "--isa-cap", [&o](const std::string& cap) { o.platform = cap; },
           "The same as --platform CAP (avx2)")
        ->excludes("--platform");
    auto* profile = run.add_option("--profile", o.profile,
                                   "The backend's profile: declared behaviours (TOML, "
                                   "backends/PROTOCOL.md section 14); default for an adapter: "
                                   "its own profile.toml");
    run.add_flag("--no-profile", o.no_profile,
                 "Apply neither the adapter's own profile.toml nor its expected.txt: the "
                 "library's raw verdicts (an --expected file given too still applies)")
        ->excludes(profile);
    run.add_option("--write-expected", o.write_expected,
                   "Write this run's deviations as an expectations file");
    run.add_option("--resume", o.resume,
                   "Continue the killed (or finished) run in DIR with the options its "
                   "results.jsonl records: run the cases it lacks, then write the reports. Only "
                   "--timeout, --shrink-budget and --shrink-seconds may be given with it (for the "
                   "cases left)")
        ->type_name("DIR");
}

// A run option given with --resume, other than --timeout and the shrink budgets: the run line's
// options are the run's, and another value would make a different run. "" when there is none.
std::string option_besides_resume(const CLI::App& run) {
    for (const CLI::Option* option : run.get_options())
        if (option->count() > 0 && option->get_name() != "--resume" &&
            option->get_name() != "--draft-profile" && option->get_name() != "--timeout" &&
            option->get_name() != "--shrink-budget" && option->get_name() != "--shrink-seconds")
            return option->get_name();
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    runner::restart_with_passive_openmp(argv);
    core::reuse_large_buffers();
    CLI::App app{"eltwise-validate: conformance checks for element-wise Mul and Div op versions"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "eltwise-validate " ELTWISE_VERSION);

    validator::ListOptions list_options;
    auto* list = app.add_subcommand("list", "Print the op-version table, or what a backend claims");
    list->add_flag("--json", list_options.as_json, "Print as JSON");
    list->add_flag("--backends", list_options.backends,
                   "List the built-in backends and the adapters, and which are available");
    list->add_option("--backend", list_options.backend,
                     "Show what this built-in backend or adapter claims");
    list->add_option("--backend-cmd", list_options.backend_cmd,
                     "Show what this out-of-process backend claims next to the spec");
    list->add_flag("--kernel-sets", list_options.kernel_sets,
                   "Which of the optimized backend's kernel sets this CPU runs (and its tests "
                   "check), and which it skips");
    list->add_flag("--categories", list_options.categories,
                   "The mismatch categories (PROTOCOL.md section 11), one name a line; with "
                   "--json, a JSON array");
    list->add_option("--platform", list_options.platform,
                     "Start the adapters there: host, avx2, x86-<QEMU CPU model>, arm64, "
                     "arm64-<QEMU CPU model>")
        ->capture_default_str();

    validator::SpecOptions spec_options;
    auto* spec = app.add_subcommand("spec", "Run the spec cases through the reference");
    spec->add_flag("--list", spec_options.list_names, "Print the case names and exit");
    spec->add_option("--case", spec_options.cases, "Run only this case (repeatable)");
    spec->add_flag("-v,--verbose", spec_options.verbose, "Print every case, not only failures");

    validator::EvalOptions eval_options;
    auto* eval = app.add_subcommand("eval", "Evaluate one op version on given inputs");
    eval->add_option("--op", eval_options.op, "Op version id, e.g. onnx.Div-14 (see `list`)")
        ->required();
    eval->add_option("--attr", eval_options.attributes, "Attribute k=v (repeatable)");
    eval->add_option("--a", eval_options.a, "Input A: a .npy file or DTYPE:SHAPE:VALUES")
        ->required();
    eval->add_option("--b", eval_options.b, "Input B: a .npy file or DTYPE:SHAPE:VALUES")
        ->required();
    eval->add_option("--dtype", eval_options.dtype,
                     "Element type where the input cannot say it (bf16 .npy files, inline values)");
    eval->add_option("--out", eval_options.out, "Write the result to a .npy or .json file");

    runner::RunOptions run_options;
    auto* run = app.add_subcommand("run", "Validate a backend: run cases, compare, classify");
    add_run_options(*run, run_options);
    std::string draft_profile;
    run->add_option("--draft-profile", draft_profile,
                    "At the end, triage the run's deviations into this drafted profile (as "
                    "`triage --draft`)");

    validator::ExportOptions export_options;
    auto* export_cases =
        app.add_subcommand("export", "Write the cases a run would select in another tool's format");
    export_cases->add_option("--format", export_options.format, "onnx-node-tests (the only one)")
        ->required()
        ->check(CLI::IsMember({"onnx-node-tests"}));
    export_cases->add_option("dir", export_options.dir, "Output directory")->required();
    add_case_filters(*export_cases, export_options.cases);

    validator::ProfileOptions profile_options;
    auto* profile = app.add_subcommand(
        "profile", "Print a profile's entries as the judge reads them: scope, condition, outcome");
    auto* profile_file = profile->add_option("file", profile_options.file, "A profile (TOML)")
                             ->check(CLI::ExistingFile);
    profile
        ->add_option("--backend", profile_options.backend,
                     "The adapter whose own profile.toml to print (the one run applies)")
        ->excludes(profile_file);
    profile->require_option(1);

    validator::ReportOptions report_options;
    auto* report = app.add_subcommand(
        "report", "Make JUnit XML, an HTML report and a JSON summary from results.jsonl files");
    report
        ->add_option("results", report_options.files,
                     "results.jsonl files: shards of one run, or runs of several backends")
        ->required()
        ->check(CLI::ExistingFile);
    report->add_option("--html", report_options.outputs.html, "Write the one-file HTML report");
    report->add_option("--junit", report_options.outputs.junit, "Write JUnit XML");
    report->add_option("--summary", report_options.outputs.summary, "Write the JSON summary");

    validator::TriageOptions triage_options;
    auto* triage_command = app.add_subcommand(
        "triage",
        "Draft a profile: the behaviour models and statuses that explain a run's deviations");
    triage_command->add_option("results", triage_options.results, "A run's results.jsonl")
        ->required()
        ->check(CLI::ExistingFile);
    triage_command
        ->add_option("--draft", triage_options.draft, "Write the drafted profile (TOML) here")
        ->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);  // prints help, or the message and usage
        return code == 0 ? 0 : validator::kUsageError;
    }
    try {
        // A bad ELTWISE_ISA (optimized/cpu_dispatch.hpp) is a usage error before anything runs,
        // not an error in every case of the built-in backend.
        optimized::active_isa();
        if (*list) return validator::run_list(list_options);
        if (*run) {
            const std::string extra = option_besides_resume(*run);
            if (!run_options.resume.empty() && !extra.empty()) {
                std::cerr << "eltwise-validate: run --resume DIR takes the run's own options: "
                          << extra
                          << " cannot be given with it (only --timeout, --shrink-budget and "
                             "--shrink-seconds can)\n";
                return validator::kUsageError;
            }
            for (int i = 0; i < argc; ++i)
                run_options.command_line += (i ? " " : "") + backends::shell_quoted(argv[i]);
            run_options.timeout_given = run->count("--timeout") > 0;
            run_options.shrink_budget_given = run->count("--shrink-budget") > 0;
            run_options.shrink_seconds_given = run->count("--shrink-seconds") > 0;
            return validator::draft_after_run(
                run_options.resume.empty() ? run_options.out : run_options.resume, draft_profile,
                validator::run_run(run_options));
        }
        if (*spec) return validator::run_spec(spec_options);
        if (*profile) return validator::run_profile(profile_options);
        if (*report) return validator::run_report(report_options);
        if (*export_cases) return validator::run_export(export_options);
        if (*triage_command) return validator::run_triage(triage_options);
        return validator::run_eval(eval_options);
    } catch (const std::exception& e) {
        std::cerr << "eltwise-validate: " << e.what() << "\n";
        return validator::kUsageError;
    }
}
