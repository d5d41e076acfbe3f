#include "runner/resume.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>
#include <unordered_map>

#include "backends/process_backend.hpp"
#include "core/error.hpp"
#include "runner/adapter_files.hpp"
#include "runner/backend_choice.hpp"
#include "runner/case_runner.hpp"
#include "runner/results_lines.hpp"
#include "runner/run_config.hpp"
#include "runner/run_plan.hpp"

namespace runner {
namespace {

using case_sources::PlannedCase;

std::string directory_of(const std::string& dir) {
    std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
    return (p.has_filename() ? p : p.parent_path()).string();
}

// Moves to the directory the run started in, so that relative paths in its options (the backend
// command, --onnx-dir, --expected) mean what they meant.
void enter_run_directory(const results::RunLine& run) {
    const std::string& then = run.directory;
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

// The options of the run whose run line this is; --timeout, --shrink-budget and --shrink-seconds
// may be given
// again, for the remaining cases.
RunOptions resumed_options(const results::RunLine& run, const RunOptions& given,
                           const std::string& dir) {
    const auto fail = [&](const std::string& why) {
        return core::Error(core::ErrorKind::input, dir + "/results.jsonl: " + why);
    };
    const std::string version = "eltwise-validate " ELTWISE_VERSION;
    if (run.validator != version)
        throw fail("written by \"" + run.validator + "\", not " + version +
                   ", which may plan other cases: start a new run");
    if (!run.error.empty())
        throw fail("the run never started (\"" + run.error +
                   "\"): start it again without --resume");
    if (!run.options || !run.backend) throw fail("the run line records no options: not resumable");
    RunOptions o;
    static_cast<results::RecordedOptions&>(o) = *run.options;
    o.out = dir;
    o.command_line = given.command_line;
    if (given.timeout_given) o.timeout_seconds = given.timeout_seconds;
    if (given.shrink_budget_given) o.shrink_budget = given.shrink_budget;
    if (given.shrink_seconds_given) o.shrink_seconds = given.shrink_seconds;
    return o;
}

backends::Hello recorded_hello(const results::RunLine& run, const std::string& dir) {
    try {
        return backends::parse_hello(run.backend->hello.dump());
    } catch (const std::exception& e) {
        throw core::Error(
            core::ErrorKind::input,
            dir + "/results.jsonl: the run line's backend hello is unreadable: " + e.what());
    }
}

// The planned cases that the lines already in the file do not cover, in plan order. A line that
// the plan lacks (or has fewer times) means the file is not this plan's: resuming would mix runs.
std::vector<const case_sources::PlannedCase*> remaining_cases(
    const std::vector<case_sources::PlannedCase>& planned,
    std::unordered_map<std::string, std::int64_t> done) {
    std::vector<const case_sources::PlannedCase*> todo;
    for (const case_sources::PlannedCase& c : planned) {
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
std::unique_ptr<backends::Backend> reopen_backend(const BackendChoice& choice,
                                                  const nlohmann::json& recorded) {
    std::unique_ptr<backends::Backend> backend = open_backend(choice);
    const nlohmann::json now = nlohmann::json::parse(backends::to_line(backend->hello()));
    const auto named = [](const nlohmann::json& hello) {
        const results::BackendRecord b = results::backend_record(hello);
        return b.name + " " + b.version;
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
void continue_results(CaseRunner& runner, const std::vector<const case_sources::PlannedCase*>& todo,
                      std::uint64_t complete_length, backends::Backend* backend) {
    const std::string path = runner.options.out + "/results.jsonl";
    if (std::filesystem::file_size(path) > complete_length) {
        results::truncate_results(path, complete_length);
        std::cout << "dropped the last line of results.jsonl, cut short when the run was killed\n";
    }
    if (todo.empty()) return;
    results::ResultsFile results(path, results::ResultsFile::Mode::append);
    runner.backend = backend;
    runner.results = &results;
    run_all(runner, todo);
    runner.results = nullptr;
}

}  // namespace

int resume_run(const RunOptions& given) {
    const std::string dir = directory_of(given.resume);
    const std::string path = dir + "/results.jsonl";
    if (!std::filesystem::is_regular_file(path))
        throw core::Error(core::ErrorKind::input, dir + " has no results.jsonl: nothing to resume");
    const results::RunLine run = results::read_run_line(path);
    const RunConfig config = run_config(resumed_options(run, given, dir));
    const RunOptions& o = config.options;
    const backends::Hello hello = recorded_hello(run, dir);
    enter_run_directory(run);
    check_applied_files(run.applied_files);  // its paths are the run directory's
    case_sources::SourceOptions sources{
        o.seed, o.count, o.onnx_dirs,
        [&](const case_sources::PlannedCase& c) { return claimed(hello, c, true); }};
    const std::vector<case_sources::PlannedCase> planned = plan_run(config, sources, hello);
    CaseRunner runner = make_case_runner(config, planned.size());
    runner.platform.gpu = hello.gpu;
    bind_settings(runner);
    std::unordered_map<std::string, std::int64_t> done;
    const std::uint64_t length = results::read_case_lines(path, [&](const results::CaseLine& line) {
        ++done[line.id];
        runner.recall(line);
    });
    const std::vector<const case_sources::PlannedCase*> todo =
        remaining_cases(planned, std::move(done));
    std::cout << "resuming " << dir << ": " << planned.size() - todo.size() << " of "
              << planned.size() << " cases done, " << todo.size() << " to run\n";
    std::unique_ptr<backends::Backend> backend;
    if (!todo.empty()) backend = reopen_backend(runner.choice, run.backend->hello);
    continue_results(runner, todo, length, backend.get());
    if (todo.empty()) std::cout << "the run was complete: nothing to run; reports rewritten\n";
    const int status = finish(runner);
    write_run_reports(o.out);
    return status;
}

}  // namespace runner
