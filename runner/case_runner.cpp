#include "runner/case_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "backends/process_backend.hpp"
#include "case_sources/exhaustive16_cases.hpp"
#include "case_sources/random_cases.hpp"
#include "core/graph_form.hpp"
#include "platform/host_platform.hpp"
#include "reports/report_data.hpp"
#include "results/repro_file_names.hpp"
#include "runner/adapter_files.hpp"
#include "runner/backend_choice.hpp"
#include "runner/platform_choice.hpp"
#include "runner/report_files.hpp"
#include "runner/repro_files.hpp"
#include "runner/results_lines.hpp"
#include "runner/run_plan.hpp"

namespace runner {
namespace {

using case_sources::PlannedCase;
using core::CaseRecord;
using results::Status;

constexpr std::size_t kFindingsShown = 20;
// Repro .npy files are written for cases up to this many output elements (a block of
// exhaustive16 that could not be narrowed would write 100 MiB; its id replays it).
constexpr std::int64_t kReproElementLimit = std::int64_t{1} << 20;
// How the message of a case that the backend's hello does not claim starts.
const std::string kNotClaimed = "the backend does not claim ";

// Why shrinking stopped with candidates left: "cut short by --shrink-seconds after 21 tries
// (120.3 s)".
std::string cut_short_text(const std::string& why, std::int64_t tries, double seconds) {
    char time[32];
    std::snprintf(time, sizeof time, "%.1f s", seconds);
    return "shrinking cut short by --shrink-" + std::string(why == "tries" ? "budget" : "seconds") +
           " after " + std::to_string(tries) + " tries (" + time + ")";
}

std::string cut_short_text(const ShrinkBudget& budget) {
    return cut_short_text(budget.cut_short, budget.used, budget.elapsed());
}

// "FAILED id  floor_vs_trunc:12", the minimal case's first mismatch, the replay line.
std::string finding_text(const results::CaseLine& line) {
    std::string text = std::string(results::name(line.verdict.status)) + " " + line.id;
    const std::string& message = line.verdict.message;
    text += "\n    " + message.substr(0, std::min<std::size_t>(message.find('\n'), 240));
    const auto& shapes = line.minimal ? line.minimal->shapes : line.shapes;
    const auto& mismatches =
        line.minimal ? line.minimal->verdict.mismatches : line.verdict.mismatches;
    if (!mismatches.empty() && shapes.size() == 2) {
        const comparison::Mismatch& m = mismatches[0];
        text += "\n    " + std::string(line.minimal ? "minimal case " : "case ") +
                nlohmann::json(shapes[0]).dump() + " x " + nlohmann::json(shapes[1]).dump() +
                ": [" + std::to_string(m.index) + "] " + std::string(comparison::name(m.category)) +
                " a=" + m.a + " b=" + m.b + " expected " + m.expected + ", actual " + m.actual;
    }
    if (line.minimal && !line.minimal->cut_short.empty())
        text +=
            "\n    " +
            cut_short_text(line.minimal->cut_short, line.minimal->tries, line.minimal->seconds) +
            ": a smaller case may fail too";
    return text + "\n    " + line.replay;
}

void print_findings(const CaseRunner& r) {
    std::size_t shown = 0;
    for (const std::string& f : r.new_findings)
        if (!f.empty() && shown++ < kFindingsShown) std::cout << f << "\n";
    if (r.new_findings.size() > shown)
        std::cout << "... and " << r.new_findings.size() - shown << " more in results.jsonl\n";
}

// Per profile entry: the cases it explained in full, or why it explained none: its condition
// does not hold here (inert), nothing in the run could show it, or it was not shown (stale).
void print_declared(const CaseRunner& r) {
    if (!r.profile) return;
    for (const profiles::Entry& e : r.profile->entries) {
        const auto n = r.declared_cases.find(e.name);
        std::cout << "declared " << e.name << " (" << e.finding << "): ";
        if (!e.condition.holds(r.platform))
            std::cout << "inert on this platform\n";
        else if (n != r.declared_cases.end())
            std::cout << n->second << " cases\n";
        else if (r.exercised.count(e.name))
            std::cout << "stale: declared, but not shown by any case it predicted\n";
        else
            std::cout << "no case in this run could show it\n";
    }
}

}  // namespace

double case_timeout(const CallTimeouts& t, const core::CaseRecord& data) {
    const double bytes =
        3.0 * static_cast<double>(std::max(data.a.bytes.size(), data.b.bytes.size()));
    return t.timeout_seconds * std::max(1.0, bytes / (64.0 * 1024 * 1024)) +
           t.compile_latency_seconds;
}

judging::CaseResult CaseRunner::evaluate(const core::OpVersion& op, const core::CaseRecord& data) {
    const judging::CallRoute route{*backend, next_call, case_timeout(timeouts, data)};
    judging::CaseResult r = judging::evaluate_case(route, op, data, settings);
    summary.add_compilations(r.compilations);  // shrinking's too: the run's cost
    return r;
}

// A case that failed or crashed, or an exhaustive16 block that failed, crashed or hung: the
// minimal case that fails the same way. A replay (--case) runs exactly the case it names, unless
// --shrink-budget asks for shrinking.
std::optional<ShrinkOutcome> CaseRunner::shrink(const case_sources::PlannedCase& c,
                                                const core::CaseRecord& data,
                                                judging::CaseResult& result) {
    const results::Status s = result.verdict.status;
    if ((!options.case_ids.empty() && !options.shrink_budget_given) ||
        (s != results::Status::failed && s != results::Status::crashed &&
         s != results::Status::hung))
        return std::nullopt;
    // Every candidate runs in the case's graph form, and its id keeps the form's prefix.
    const auto run = [&](core::CaseRecord d) {
        d.graph_form = c.graph_form;
        return evaluate(*c.op, d);
    };
    const std::string base(core::runtime_id(c.id));
    ShrinkBudget budget{options.shrink_budget, options.shrink_seconds};
    std::optional<ShrinkOutcome> m;
    if (const auto key = case_sources::parse_exhaustive16_case_id(base)) {
        m = narrow_block_failure(*key, result, budget, run);
    } else if (s != results::Status::hung) {  // a hang costs a timeout per try
        m = narrow_pairs(base, data, result, budget, run);
        // Pairs that fail only together, or in their shape: the generator's own shrinks.
        const auto key = case_sources::parse_random_case_id(base);
        if (key && (!m || m->elements > 1)) {
            std::optional<ShrinkOutcome> walked = shrink_failure(*key, result, budget, run);
            if (walked && (!m || walked->elements < m->elements)) m = std::move(walked);
        }
    }
    if (!m) {
        if (!budget.cut_short.empty())
            result.verdict.message += " | not shrunk: " + cut_short_text(budget);
        return m;
    }
    m->id = c.id.substr(0, c.id.size() - base.size()) + m->id;
    m->tries = budget.used;
    m->seconds = budget.elapsed();
    m->cut_short = budget.cut_short;
    return m;
}

namespace {

std::int64_t repro_elements(const core::CaseRecord& data, const judging::CaseResult& result) {
    return std::max(
        {data.a.size(), data.b.size(), result.expected.value.size(), result.actual.size()});
}

// A call re-run without undefined elements: the repro is the re-run call.
std::vector<std::string> save_call(const std::string& dir, const core::OpVersion& op,
                                   const core::CaseRecord& data,
                                   const judging::CaseResult& result) {
    core::CaseRecord defined = data;
    if (result.defined_b) defined.b = *result.defined_b;
    return save_repro(dir, op, defined, result);
}

}  // namespace

// The repro files of a deviation: of its minimal case when it was shrunk, and then of the case
// itself too (in `original/`) when it is small enough.
std::vector<std::string> CaseRunner::save(const case_sources::PlannedCase& c,
                                          const core::CaseRecord& data, judging::CaseResult& result,
                                          const std::optional<ShrinkOutcome>& minimal) {
    const std::string id = minimal ? minimal->id : c.id;
    const core::CaseRecord& shown = minimal ? minimal->data : data;
    const judging::CaseResult& shown_result = minimal ? minimal->result : result;
    try {
        const std::int64_t elements = repro_elements(shown, shown_result);
        if (elements > kReproElementLimit) {
            result.verdict.message += " | repro files not saved: " + std::to_string(elements) +
                                      " elements; `run --case` replays it";
            return {};
        }
        const std::filesystem::path dir =
            std::filesystem::absolute(options.out).lexically_normal() / repro_dir_name(id);
        std::vector<std::string> files = save_call(dir.string(), *c.op, shown, shown_result);
        if (minimal && repro_elements(data, result) <= kReproElementLimit)
            for (std::string& f :
                 save_call((dir / results::kReproOriginal).string(), *c.op, data, result))
                files.push_back(std::move(f));
        return files;
    } catch (const std::exception& e) {
        result.verdict.message += std::string(" | repro files not saved: ") + e.what();
        return {};
    }
}

void CaseRunner::record(const case_sources::PlannedCase& c, const core::CaseRecord* data,
                        judging::CaseResult result) {
    std::optional<ShrinkOutcome> minimal;
    std::vector<std::string> files;
    if (data && results::is_deviation(result.verdict.status)) {
        minimal = shrink(c, *data, result);
        files = save(c, *data, result, minimal);
    }
    results::CaseLine line = case_line({&c, data, &result, minimal ? &*minimal : nullptr, files});
    if (results::is_deviation(result.verdict.status))
        line.replay = replay_line(options, minimal ? minimal->id : c.id);
    results->append(line);
    if (data && !data->note.empty()) notes.push_back(c.id + ": " + data->note);
    summary.add(c.op ? c.op->id() : "", result.verdict.status);
    tally(line, line.baseline);
}

// Counts the line as its baseline outcome says (judging::baseline_of): without --expected every
// deviation is a finding.
void CaseRunner::tally(const results::CaseLine& line, results::Baseline baseline) {
    const std::string& id = line.id;
    const results::Status status = line.verdict.status;
    if (baseline == results::Baseline::now_passes) now_passing.push_back(id);
    if (status == results::Status::deviates_as_declared)
        for (const auto& [name, count] : line.verdict.declared)
            ++declared_cases[name];
    if (!results::is_deviation(status)) return;
    deviations.push_back({id, status});
    if (baseline == results::Baseline::accepted) return;
    new_findings.push_back(new_findings.size() < kFindingsShown ? finding_text(line) : "");
}

// A case line of the run being resumed: held against this run's baseline (an older line has
// none) and counted as if the case had just run.
void CaseRunner::recall(const results::CaseLine& line) {
    summary.add_previous(line.op, line.verdict.status);
    if (!line.note.empty()) notes.push_back(line.id + ": " + line.note);
    tally(line, judging::baseline_of(settings, line.id, line.verdict.status));
    // as run_claimed() says: a block that was built (it has shapes) and claimed
    const bool checked = !line.shapes.empty() && !line.verdict.message.starts_with(kNotClaimed);
    const auto key = line.source == "exhaustive16"
                         ? case_sources::parse_exhaustive16_case_id(core::runtime_id(line.id))
                         : std::nullopt;
    if (checked && key) summary.add_sweep(key->function.id, key->block.pairs(), line.seconds);
}

// Runs the case; for an exhaustive16 block, counts its pairs and wall time.
void CaseRunner::run(const case_sources::PlannedCase& c) {
    const auto start = std::chrono::steady_clock::now();
    const bool checked = run_claimed(c);
    const auto key = c.source == "exhaustive16"
                         ? case_sources::parse_exhaustive16_case_id(core::runtime_id(c.id))
                         : std::nullopt;
    if (checked && key)
        summary.add_sweep(
            key->function.id, key->block.pairs(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// A case that ends before the judge sees it (not claimed, not built): the runner's verdict, and
// what the baseline says of it.
judging::CaseResult CaseRunner::ended_unjudged(const case_sources::PlannedCase& c,
                                               results::Status status, std::string message) const {
    judging::CaseResult r;
    r.verdict.status = status;
    r.verdict.message = std::move(message);
    r.baseline = judging::baseline_of(settings, c.id, status);
    return r;
}

// Runs the case; false when it ended UNSUPPORTED or ERROR without reaching the backend.
bool CaseRunner::run_claimed(const case_sources::PlannedCase& c) {
    if (!claimed(backend->hello(), c, c.valid)) {
        record(c, nullptr,
               ended_unjudged(c, results::Status::unsupported,
                              kNotClaimed + (c.op ? c.op->id() : "") + " " +
                                  std::string(core::name(c.dtype))));
        return false;
    }
    core::CaseRecord data;
    try {
        data = c.build();
        data.id = c.id;
    } catch (const std::exception& e) {
        record(c, nullptr,
               ended_unjudged(c, results::Status::error,
                              std::string("the validator could not build this case: ") + e.what()));
        return false;
    }
    if (data.valid != c.valid && !claimed(backend->hello(), c, data.valid)) {
        record(c, &data,
               ended_unjudged(c, results::Status::unsupported,
                              kNotClaimed + "this (op version, type)"));
        return false;
    }
    record(c, &data, evaluate(*c.op, data));
    return true;
}

// junit.xml and report.html beside results.jsonl: views of it, made by reading it back.
void write_run_reports(const std::string& out) {
    const reports::ReportData data = reports::collect_report({out + "/results.jsonl"});
    write_reports(data, {out + "/report.html", out + "/junit.xml", std::nullopt});
}

int finish(CaseRunner& r) {
    std::cout << "\n";
    r.summary.print_table(std::cout);
    r.summary.print_sweeps(std::cout);
    const std::size_t findings = r.new_findings.size();
    std::cout << "\n"
              << r.summary.done() << " cases; " << findings
              << (r.expectations.empty() ? " findings" : " unexpected findings") << "; results in "
              << r.options.out << "/results.jsonl\n"
              << r.summary.rate_line() << "\n";
    print_findings(r);
    for (const std::string& note : r.notes)
        std::cout << "note on " << note << "\n";
    for (const std::string& id : r.now_passing)
        std::cout << "expected to deviate, now passes: " << id << "\n";
    print_declared(r);
    if (r.options.write_expected)
        results::write_expectations(*r.options.write_expected, r.deviations);
    return findings == 0 ? 0 : 1;
}

// Reads --expected and --profile before the backend starts: a usage error costs no backend
// start.
CaseRunner make_case_runner(const RunConfig& config, std::size_t planned) {
    const RunOptions& o = config.options;
    const PlatformChoice& platform = config.backend.platform;
    CaseRunner r{
        .options = o,
        .choice = config.backend,
        // Named fields: a positional bool after compile_latency_seconds was added
        // landed in that double, and --undefined-refusal deviation did nothing.
        .settings = {.judge = {.policy = config.policy},
                     .undefined_refusal_is_deviation = config.undefined_refusal_is_deviation},
        .timeouts = {.timeout_seconds = o.timeout_seconds * platform.timeout_factor()},
        .summary = RunSummary(static_cast<std::int64_t>(planned))};
    if (o.expected) r.expectations = results::read_expectations(*o.expected);
    if (o.profile) r.profile = profiles::read_profile(*o.profile);
    r.platform = platform_facts(platform);
    if (!platform.isa_cap.empty()) apply_isa_cap(r.choice);
    return r;
}

// Runs the cases, appending their lines; a progress line rewritten in place on a terminal, else
// one line every --progress-seconds (a run in the background is not silent until its end).
void run_all(CaseRunner& runner, const std::vector<const case_sources::PlannedCase*>& todo) {
    const bool terminal = ::isatty(2);
    const std::chrono::duration<double> every =
        terminal ? std::chrono::duration<double>(0.2)
                 : std::chrono::duration<double>(runner.options.progress_seconds);
    auto last = std::chrono::steady_clock::now();
    for (const case_sources::PlannedCase* c : todo) {
        runner.run(*c);
        if (std::chrono::steady_clock::now() - last < every) continue;
        if (terminal)
            std::cerr << "\r" << runner.summary.progress_line() << "\x1b[K" << std::flush;
        else
            std::cerr << "progress " << runner.summary.progress_line() << std::endl;
        last = std::chrono::steady_clock::now();
    }
    if (terminal) std::cerr << "\r" << runner.summary.progress_line() << "\x1b[K\n";
}

void bind_settings(CaseRunner& r) {
    if (r.options.expected) r.settings.expectations = &r.expectations;
    if (!r.profile) return;
    r.settings.judge.profile = &*r.profile;
    r.settings.judge.platform = &r.platform;
    r.settings.judge.exercised = &r.exercised;
}

namespace {

// The ids a run would plan for a backend claiming everything: the backend is not started (its
// claims are known only from its hello).
int list_cases(const RunConfig& config) {
    const RunOptions& o = config.options;
    const backends::Hello hello = claiming_everything();
    const case_sources::SourceOptions sources{o.seed, o.count, o.onnx_dirs};
    for (const case_sources::PlannedCase& c : plan_run(config, sources, hello))
        std::cout << c.id << "\n";
    return 0;
}

// The run line, with the files that judge the run and their hashes; which they are, on stdout.
results::RunLine first_line(const RunConfig& config, const CaseRunner& r,
                            const backends::Hello* hello, const std::string& error) {
    results::RunLine line = run_line(config, r.platform, hello, error);
    line.applied_files = applied_files(r.options, r.profile ? &*r.profile : nullptr);
    for (const results::AppliedFile& f : line.applied_files)
        if (f.role != results::FileRole::profile_include)
            std::cout << "judged by " << results::name(f.role) << " " << f.path
                      << (f.adapter_default ? " (the adapter's own; --no-profile: raw verdicts)"
                                            : "")
                      << "\n";
    return line;
}

}  // namespace

int start_run(const RunConfig& config) {
    const RunOptions& o = config.options;
    CaseRunner runner = make_case_runner(config, 0);  // usage errors first, also for --list-cases
    if (o.list_cases) return list_cases(config);
    std::unique_ptr<backends::Backend> backend;
    try {
        backend = open_backend(runner.choice);
    } catch (const backends::BackendStartError& e) {
        std::filesystem::create_directories(o.out);
        results::ResultsFile(o.out + "/results.jsonl")
            .append(
                first_line(config, runner, nullptr, std::string("PROTOCOL_ERROR: ") + e.what()));
        std::cerr << "eltwise-validate: PROTOCOL_ERROR for the whole run: " << e.what() << "\n";
        write_run_reports(o.out);
        return 1;
    }
    const backends::Hello& hello = backend->hello();
    runner.platform.gpu = hello.gpu;  // a GPU backend's verdicts hold on the GPU it names
    if (hello.compile)
        runner.timeouts.compile_latency_seconds =
            hello.compile->latency_seconds * runner.choice.platform.timeout_factor();
    case_sources::SourceOptions sources{
        o.seed, o.count, o.onnx_dirs,
        [&](const case_sources::PlannedCase& c) { return claimed(hello, c, true); }};
    // Planned before anything is written: a usage error leaves an earlier results file alone.
    const std::vector<case_sources::PlannedCase> planned = plan_run(config, sources, hello);
    std::filesystem::create_directories(o.out);
    results::ResultsFile results(o.out + "/results.jsonl");
    results.append(first_line(config, runner, &hello, ""));
    runner.summary = RunSummary(static_cast<std::int64_t>(planned.size()));
    runner.backend = backend.get();
    runner.results = &results;
    bind_settings(runner);
    std::vector<const case_sources::PlannedCase*> todo;
    for (const case_sources::PlannedCase& c : planned)
        todo.push_back(&c);
    run_all(runner, todo);
    const int status = finish(runner);
    write_run_reports(o.out);
    return status;
}

}  // namespace runner
