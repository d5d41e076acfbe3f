// `run`: every planned case through one backend, with results.jsonl written as it goes, shrunk
// repros for failures, the summary table, and exit codes for CI.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <unordered_map>

#include "backends/process_backend.hpp"
#include "core/error.hpp"
#include "validator/backend_choice.hpp"
#include "validator/case_sources.hpp"
#include "validator/commands.hpp"
#include "validator/expectations.hpp"
#include "validator/report_files.hpp"
#include "validator/repro_files.hpp"
#include "validator/results_file.hpp"
#include "validator/run_summary.hpp"
#include "validator/sharding.hpp"
#include "validator/shrinking.hpp"

namespace validator {
namespace {

constexpr std::size_t kFindingsShown = 20;
// Repro .npy files are written for cases up to this many output elements (a block of
// exhaustive16 that could not be narrowed would write 100 MiB; its id replays it).
constexpr std::int64_t kReproElementLimit = std::int64_t{1} << 20;
// How the message of a case that the backend's hello does not claim starts.
const std::string kNotClaimed = "the backend does not claim ";

// The command that reruns one case with the same backend and policy.
std::string replay_line(const RunOptions& o, const std::string& id) {
    std::string line = "eltwise-validate run";
    line += o.backend_cmd.empty() ? " --backend " + o.backend
                                  : " --backend-cmd " + backends::shell_quoted(o.backend_cmd);
    if (o.nan != "any") line += " --nan " + o.nan;
    if (o.ulp) line += " --ulp " + std::to_string(o.ulp);
    if (o.allow_ftz) line += " --allow-ftz";
    for (const std::string& d : o.onnx_dirs)
        if (id.starts_with("onnx:")) line += " --onnx-dir " + backends::shell_quoted(d);
    return line + " --case " + backends::shell_quoted(id);
}

// junit.xml and report.html beside results.jsonl: views of it, made by reading it back.
void write_run_reports(const std::string& out) {
    const reports::ReportData data = reports::collect_report({out + "/results.jsonl"});
    write_reports(data, {out + "/report.html", out + "/junit.xml", std::nullopt});
}

ComparisonPolicy policy_of(const RunOptions& o) {
    if (o.nan != "any" && o.nan != "strict")
        throw std::invalid_argument("--nan must be 'any' or 'strict', not '" + o.nan + "'");
    if (o.ulp < 0) throw std::invalid_argument("--ulp must be >= 0");
    return {o.nan == "strict" ? NanPolicy::strict : NanPolicy::any, o.ulp, o.allow_ftz};
}

template <class T, class Parse>
std::vector<T> parsed_filter(const std::vector<std::string>& texts, const char* what, Parse parse) {
    std::vector<T> out;
    for (const std::string& text : texts) {
        const auto v = parse(text);
        if (!v) throw std::invalid_argument(std::string(what) + ": unknown '" + text + "'");
        out.push_back(*v);
    }
    return out;
}

std::vector<PlannedCase> plan_run(const RunOptions& o, const SourceOptions& sources) {
    std::vector<PlannedCase> planned;
    for (const std::string& id : o.case_ids) {
        auto c = plan_case(id, sources);
        if (!c) throw std::invalid_argument("--case: no case '" + id + "'");
        planned.push_back(std::move(*c));
    }
    if (o.case_ids.empty()) {
        std::vector<std::string_view> names(o.cases.begin(), o.cases.end());
        if (names.empty()) names = default_source_names();
        for (std::string_view source : names)
            for (PlannedCase& c : plan_source(source, sources))
                planned.push_back(std::move(c));
    }
    const auto ops = parsed_filter<const core::OpVersion*>(o.ops, "--op", [](const auto& t) {
        const core::OpVersion* op = core::find_op_version(t);
        return op ? std::optional(op) : std::nullopt;
    });
    const auto dtypes = parsed_filter<core::ElementType>(
        o.dtypes, "--dtype", [](const auto& t) { return core::parse_element_type(t); });
    std::erase_if(planned, [&](const PlannedCase& c) {
        const auto has = [](const auto& list, const auto& v) {
            return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
        };
        return !has(ops, c.op) || !has(dtypes, c.dtype) || !has(o.sources, c.source);
    });
    if (!o.shard.empty()) {
        const Shard shard = parse_shard(o.shard);
        std::erase_if(planned, [&](const PlannedCase& c) { return !in_shard(c.id, shard); });
    }
    return planned;
}

bool claimed(const backends::Hello& hello, const PlannedCase& c, bool valid) {
    if (!c.op) return true;  // the case cannot be built: let it end as ERROR
    return valid ? hello.claims(c.op->id(), c.dtype) : hello.claims(c.op->id());
}

std::string now_text() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

nlohmann::json run_line(const RunOptions& o, const backends::Hello* hello,
                        const std::string& error) {
    nlohmann::json run = {
        {"validator", "eltwise-validate " ELTWISE_VERSION},
        {"command_line", o.command_line},
        {"seed", o.seed},
        {"count", o.count},
        {"started", now_text()},
        {"policy", {{"nan", o.nan}, {"ulp", o.ulp}, {"allow_ftz", o.allow_ftz}}},
        {"backend_command", o.backend_cmd.empty() ? "--backend " + o.backend : o.backend_cmd}};
    if (!o.label.empty()) run["label"] = o.label;
    // what `run --resume` needs to plan and judge the same cases
    run["options"] = options_json(o);
    run["directory"] = std::filesystem::current_path().string();
    if (!o.shard.empty()) run["shard"] = parse_shard(o.shard).text();
    if (hello) run["backend"] = nlohmann::json::parse(backends::to_line(*hello));
    if (!error.empty()) run["error"] = error;
    return {{"run", run}};
}

struct Runner {
    const RunOptions& options;
    EvaluationSettings settings;
    RunSummary summary;
    backends::Backend* backend = nullptr;  // set once the backend runs (not for recalled cases)
    ResultsFile* results = nullptr;
    std::vector<Expectation> expectations;
    std::vector<Deviation> deviations;
    std::vector<std::string> new_findings, now_passing;
    std::vector<std::string> notes;  // findings about the cases themselves (ONNX test data)
    std::int64_t next_call = 1;

    CaseResult evaluate(const core::OpVersion& op, const CaseData& data) {
        return evaluate_case(*backend, op, data, settings, next_call++);
    }

    // A random case that failed or crashed, or an exhaustive16 block that failed, crashed or
    // hung: the minimal case that fails the same way.
    std::optional<ShrinkOutcome> shrink(const PlannedCase& c, const CaseResult& result) {
        const auto run = [&](const CaseData& d) { return evaluate(*c.op, d); };
        const Status s = result.status;
        if (s != Status::failed && s != Status::crashed && s != Status::hung) return std::nullopt;
        if (const auto key = parse_exhaustive16_case_id(c.id))
            return narrow_block_failure(*key, result, options.shrink_budget, run);
        const auto key = parse_random_case_id(c.id);
        if (!key || s == Status::hung) return std::nullopt;
        return shrink_failure(*key, result, options.shrink_budget, run);
    }

    // The repro files of a deviation: of its minimal case when it was shrunk.
    std::vector<std::string> save(const PlannedCase& c, const CaseData& data, CaseResult& result,
                                  const std::optional<ShrinkOutcome>& minimal) {
        const std::string id = minimal ? minimal->id : c.id;
        const CaseData& shown = minimal ? minimal->data : data;
        const CaseResult& shown_result = minimal ? minimal->result : result;
        try {
            const std::int64_t elements =
                std::max({shown.a.size(), shown.b.size(), shown_result.expected.value.size(),
                          shown_result.actual.size()});
            if (elements > kReproElementLimit) {
                result.message += " | repro files not saved: " + std::to_string(elements) +
                                  " elements; `run --case` replays it";
                return {};
            }
            const std::filesystem::path out = std::filesystem::absolute(options.out);
            return save_repro((out.lexically_normal() / repro_dir_name(id)).string(), *c.op, shown,
                              shown_result);
        } catch (const std::exception& e) {
            result.message += std::string(" | repro files not saved: ") + e.what();
            return {};
        }
    }

    void record(const PlannedCase& c, const CaseData* data, CaseResult result) {
        std::optional<ShrinkOutcome> minimal;
        std::vector<std::string> files;
        if (data && is_deviation(result.status)) {
            minimal = shrink(c, result);
            files = save(c, *data, result, minimal);
        }
        nlohmann::json line = case_line({&c, data, &result, minimal ? &*minimal : nullptr, files});
        if (is_deviation(result.status))
            line["replay"] = replay_line(options, minimal ? minimal->id : c.id);
        results->append(line);
        if (data && !data->note.empty()) notes.push_back(c.id + ": " + data->note);
        summary.add(c.op ? c.op->id() : "", result.status);
        judge(c.id, result.status, line);
    }

    void judge(const std::string& id, Status status, const nlohmann::json& line) {
        if (status == Status::passed && is_named(expectations, id)) now_passing.push_back(id);
        if (!is_deviation(status)) return;
        deviations.push_back({id, status});
        if (find_expectation(expectations, id, status)) return;
        new_findings.push_back(new_findings.size() < kFindingsShown ? finding_text(line) : "");
    }

    // "FAILED id  floor_vs_trunc:12", the minimal case's first mismatch, the replay line.
    static std::string finding_text(const nlohmann::json& line) {
        std::string text =
            line["status"].get<std::string>() + " " + line["case"].get<std::string>();
        const std::string message = line.value("message", "");
        text += "\n    " + message.substr(0, std::min<std::size_t>(message.find('\n'), 240));
        const nlohmann::json& shown = line.contains("minimal") ? line["minimal"] : line;
        if (shown.contains("mismatches")) {
            const nlohmann::json& m = shown["mismatches"][0];
            text += "\n    " + std::string(line.contains("minimal") ? "minimal case " : "case ") +
                    shown["shapes"][0].dump() + " x " + shown["shapes"][1].dump() + ": [" +
                    m["index"].dump() + "] " + m["category"].get<std::string>() +
                    " a=" + m["a"].get<std::string>() + " b=" + m["b"].get<std::string>() +
                    " expected " + m["expected"].get<std::string>() + ", actual " +
                    m["actual"].get<std::string>();
        }
        return text + "\n    " + line.value("replay", "");
    }

    // A case line of the run being resumed: counted and judged as if the case had just run.
    void recall(const nlohmann::json& line) {
        const std::string id = line["case"].get<std::string>();
        const Status status = *parse_status(line["status"].get<std::string>());
        summary.add_previous(line["op"].get<std::string>(), status);
        if (line.contains("note")) notes.push_back(id + ": " + line["note"].get<std::string>());
        judge(id, status, line);
        // as run_claimed() says: a block that was built (it has shapes) and claimed
        const bool checked = !line.value("shapes", nlohmann::json()).empty() &&
                             !line.value("message", "").starts_with(kNotClaimed);
        const auto key =
            line["source"] == "exhaustive16" ? parse_exhaustive16_case_id(id) : std::nullopt;
        if (checked && key)
            summary.add_sweep(key->function.id, key->block.pairs(), line.value("seconds", 0.0));
    }

    // Runs the case; for an exhaustive16 block, counts its pairs and wall time.
    void run(const PlannedCase& c) {
        const auto start = std::chrono::steady_clock::now();
        const bool checked = run_claimed(c);
        const auto key =
            c.source == "exhaustive16" ? parse_exhaustive16_case_id(c.id) : std::nullopt;
        if (checked && key)
            summary.add_sweep(
                key->function.id, key->block.pairs(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }

    // Runs the case; false when it ended UNSUPPORTED or ERROR without reaching the backend.
    bool run_claimed(const PlannedCase& c) {
        if (!claimed(backend->hello(), c, c.valid)) {
            CaseResult r;
            r.status = Status::unsupported;
            r.message =
                kNotClaimed + (c.op ? c.op->id() : "") + " " + std::string(core::name(c.dtype));
            record(c, nullptr, std::move(r));
            return false;
        }
        CaseData data;
        try {
            data = c.build();
        } catch (const std::exception& e) {
            CaseResult r;
            r.status = Status::error;
            r.message = std::string("the validator could not build this case: ") + e.what();
            record(c, nullptr, std::move(r));
            return false;
        }
        if (data.valid != c.valid && !claimed(backend->hello(), c, data.valid)) {
            CaseResult r;
            r.status = Status::unsupported;
            r.message = kNotClaimed + "this (op version, type)";
            record(c, &data, std::move(r));
            return false;
        }
        record(c, &data, evaluate(*c.op, data));
        return true;
    }
};

void print_findings(const Runner& r) {
    std::size_t shown = 0;
    for (const std::string& f : r.new_findings)
        if (!f.empty() && shown++ < kFindingsShown) std::cout << f << "\n";
    if (r.new_findings.size() > shown)
        std::cout << "... and " << r.new_findings.size() - shown << " more in results.jsonl\n";
}

int finish(Runner& r) {
    std::cout << "\n";
    r.summary.print_table(std::cout);
    r.summary.print_sweeps(std::cout);
    const std::size_t findings = r.new_findings.size();
    std::cout << "\n"
              << r.summary.done() << " cases; " << findings
              << (r.expectations.empty() ? " findings" : " unexpected findings") << "; results in "
              << r.options.out << "/results.jsonl\n";
    print_findings(r);
    for (const std::string& note : r.notes)
        std::cout << "note on " << note << "\n";
    for (const std::string& id : r.now_passing)
        std::cout << "expected to deviate, now passes: " << id << "\n";
    if (r.options.write_expected) write_expectations(*r.options.write_expected, r.deviations);
    return findings == 0 ? 0 : 1;
}

// Reads --expected before the backend starts: a usage error costs no backend start.
Runner make_runner(const RunOptions& o, std::size_t planned) {
    Runner r{o,
             {policy_of(o), o.timeout_seconds},
             RunSummary(static_cast<std::int64_t>(planned)),
             nullptr,
             nullptr,
             {},
             {},
             {},
             {},
             {},
             1};
    if (o.expected) r.expectations = read_expectations(*o.expected);
    return r;
}

// Runs the cases, appending their lines; a progress line on a terminal.
void run_all(Runner& runner, const std::vector<const PlannedCase*>& todo) {
    const bool terminal = ::isatty(2);
    auto last = std::chrono::steady_clock::now();
    for (const PlannedCase* c : todo) {
        runner.run(*c);
        if (terminal && std::chrono::steady_clock::now() - last > std::chrono::milliseconds(200)) {
            std::cerr << "\r" << runner.summary.progress_line() << "\x1b[K" << std::flush;
            last = std::chrono::steady_clock::now();
        }
    }
    if (terminal) std::cerr << "\r" << runner.summary.progress_line() << "\x1b[K\n";
}

int run_new(const RunOptions& o) {
    Runner runner = make_runner(o, 0);
    std::unique_ptr<backends::Backend> backend;
    try {
        backend = open_backend(o.backend, o.backend_cmd);
    } catch (const backends::BackendStartError& e) {
        if (o.list_cases) throw;
        std::filesystem::create_directories(o.out);
        ResultsFile(o.out + "/results.jsonl")
            .append(run_line(o, nullptr, std::string("PROTOCOL_ERROR: ") + e.what()));
        std::cerr << "eltwise-validate: PROTOCOL_ERROR for the whole run: " << e.what() << "\n";
        write_run_reports(o.out);
        return 1;
    }
    const backends::Hello& hello = backend->hello();
    SourceOptions sources{o.seed, o.count, o.onnx_dirs,
                          [&](const PlannedCase& c) { return claimed(hello, c, true); }};
    // Planned before anything is written: a usage error leaves an earlier results file alone.
    const std::vector<PlannedCase> planned = plan_run(o, sources);
    if (o.list_cases) {
        for (const PlannedCase& c : planned)
            std::cout << c.id << "\n";
        return 0;
    }
    std::filesystem::create_directories(o.out);
    ResultsFile results(o.out + "/results.jsonl");
    results.append(run_line(o, &hello, ""));
    runner.summary = RunSummary(static_cast<std::int64_t>(planned.size()));
    runner.backend = backend.get();
    runner.results = &results;
    std::vector<const PlannedCase*> todo;
    for (const PlannedCase& c : planned)
        todo.push_back(&c);
    run_all(runner, todo);
    const int status = finish(runner);
    write_run_reports(o.out);
    return status;
}

// --- run --resume DIR ---

std::string directory_of(const std::string& dir) {
    std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
    return (p.has_filename() ? p : p.parent_path()).string();
}

// Moves to the directory the run started in, so that relative paths in its options (the backend
// command, --onnx-dir, --expected) mean what they meant.
void enter_run_directory(const nlohmann::json& run) {
    const std::string then = run.value("directory", "");
    std::error_code error;
    if (then.empty() || !std::filesystem::is_directory(then, error)) {
        std::cerr << "eltwise-validate: warning: the run's working directory '" << then
                  << "' is gone; relative paths in its options are taken from here\n";
        return;
    }
    if (std::filesystem::equivalent(then, std::filesystem::current_path(), error)) return;
    std::filesystem::current_path(then);
    std::cout << "working in " << then << ", as the run did\n";
}

// The options of the run whose run line this is; --timeout may be given again.
RunOptions resumed_options(const nlohmann::json& run, const RunOptions& given,
                           const std::string& dir) {
    const auto fail = [&](const std::string& why) {
        return core::Error(core::ErrorKind::input, dir + "/results.jsonl: " + why);
    };
    const std::string version = "eltwise-validate " ELTWISE_VERSION;
    if (!run.contains("validator") || run["validator"] != version)
        throw fail("written by " + run.value("validator", nlohmann::json()).dump() + ", not " +
                   version + ", which may plan other cases: start a new run");
    if (run.contains("error"))
        throw fail("the run never started (" + run["error"].dump() +
                   "): start it again without --resume");
    if (!run.contains("options") || !run.contains("backend"))
        throw fail("the run line records no options: not resumable");
    RunOptions o;
    try {
        o = options_from_json(run["options"]);
    } catch (const core::Error& e) {
        throw fail(e.what());
    }
    o.out = dir;
    o.command_line = given.command_line;
    if (given.timeout_given) o.timeout_seconds = given.timeout_seconds;
    return o;
}

backends::Hello recorded_hello(const nlohmann::json& run, const std::string& dir) {
    try {
        return backends::parse_hello(run["backend"].dump());
    } catch (const std::exception& e) {
        throw core::Error(
            core::ErrorKind::input,
            dir + "/results.jsonl: the run line's backend hello is unreadable: " + e.what());
    }
}

// The planned cases that the lines already in the file do not cover, in plan order. A line that
// the plan lacks (or has fewer times) means the file is not this plan's: resuming would mix runs.
std::vector<const PlannedCase*> remaining_cases(
    const std::vector<PlannedCase>& planned, std::unordered_map<std::string, std::int64_t> done) {
    std::vector<const PlannedCase*> todo;
    for (const PlannedCase& c : planned) {
        const auto it = done.find(c.id);
        if (it != done.end() && it->second > 0)
            --it->second;
        else
            todo.push_back(&c);
    }
    for (const auto& [id, extra] : done)
        if (extra > 0)
            throw core::Error(core::ErrorKind::input,
                              "results.jsonl has case " + id +
                                  ", which the run's options do not plan (as often): the file "
                                  "is not this run's");
    return todo;
}

// The backend the remaining cases run on: the one the run started with, or no resuming.
std::unique_ptr<backends::Backend> reopen_backend(const RunOptions& o,
                                                  const nlohmann::json& recorded) {
    std::unique_ptr<backends::Backend> backend = open_backend(o.backend, o.backend_cmd);
    const nlohmann::json now = nlohmann::json::parse(backends::to_line(backend->hello()));
    const auto named = [](const nlohmann::json& hello) {
        return hello.value("name", "") + " " + hello.value("version", "");
    };
    if (now != recorded)
        throw core::Error(core::ErrorKind::input,
                          "the backend's hello is not the one the run started with (now " +
                              named(now) + ", then " + named(recorded) +
                              (named(now) == named(recorded) ? ", other claims" : "") +
                              "): resuming would mix two backends' results");
    return backend;
}

// Cuts a last line that the kill left half written; then appends the remaining cases.
void continue_results(Runner& runner, const std::vector<const PlannedCase*>& todo,
                      std::uint64_t complete_length, backends::Backend* backend) {
    const std::string path = runner.options.out + "/results.jsonl";
    if (std::filesystem::file_size(path) > complete_length) {
        truncate_results(path, complete_length);
        std::cout << "dropped the last line of results.jsonl, cut short when the run was killed\n";
    }
    if (todo.empty()) return;
    ResultsFile results(path, ResultsFile::Mode::append);
    runner.backend = backend;
    runner.results = &results;
    run_all(runner, todo);
    runner.results = nullptr;
}

// Everything is read and checked before the file changes: an error leaves it as it was.
int run_resumed(const RunOptions& given) {
    const std::string dir = directory_of(given.resume);
    const std::string path = dir + "/results.jsonl";
    if (!std::filesystem::is_regular_file(path))
        throw core::Error(core::ErrorKind::input, dir + " has no results.jsonl: nothing to resume");
    const nlohmann::json run = read_run_line(path);
    const RunOptions o = resumed_options(run, given, dir);
    const backends::Hello hello = recorded_hello(run, dir);
    enter_run_directory(run);
    SourceOptions sources{o.seed, o.count, o.onnx_dirs,
                          [&](const PlannedCase& c) { return claimed(hello, c, true); }};
    const std::vector<PlannedCase> planned = plan_run(o, sources);
    Runner runner = make_runner(o, planned.size());
    std::unordered_map<std::string, std::int64_t> done;
    const std::uint64_t length = read_case_lines(path, [&](const nlohmann::json& line) {
        ++done[line["case"].get<std::string>()];
        runner.recall(line);
    });
    const std::vector<const PlannedCase*> todo = remaining_cases(planned, std::move(done));
    std::cout << "resuming " << dir << ": " << planned.size() - todo.size() << " of "
              << planned.size() << " cases done, " << todo.size() << " to run\n";
    std::unique_ptr<backends::Backend> backend;
    if (!todo.empty()) backend = reopen_backend(o, run["backend"]);
    continue_results(runner, todo, length, backend.get());
    if (todo.empty()) std::cout << "the run was complete: nothing to run; reports rewritten\n";
    const int status = finish(runner);
    write_run_reports(o.out);
    return status;
}

}  // namespace

int run_run(const RunOptions& o) {
    return o.resume.empty() ? run_new(o) : run_resumed(o);
}

}  // namespace validator
