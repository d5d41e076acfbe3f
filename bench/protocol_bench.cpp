// eltwise-protocol-bench: what validating through a child process costs, measured against the
// same work in process, in one run (ratios, never bare times, are the result).
//  1. Per-case overhead: small cases through eltwise-backend-host with the trivial plugin, and
//     through the optimized plugin, in validated cases per second (request, .npy files,
//     response, comparison).
//  2. Throughput: validated elements per second on 2^24-element f32 cases, through the host
//     with the optimized plugin versus the built-in optimized backend in process.
//  3. With --backend-cmd, both for any other backend command as well (an adapter: its small
//     cases per second, and its large-case rate against the built-in backend's).
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "backends/process_backend.hpp"
#include "bench/median_timer.hpp"
#include "core/large_buffers.hpp"
#include "core/op_table.hpp"
#include "judging/case_evaluation.hpp"
#include "runner/case_runner.hpp"
#include "runner/openmp_wait_policy.hpp"

namespace {

core::Tensor filled(core::Shape shape, float start) {
    core::Tensor t = core::Tensor::zeros(core::ElementType::f32, std::move(shape));
    auto v = t.values<float>();
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = start + static_cast<float>(i % 1000) * 0.25f;
    return t;
}

struct Workload {
    const core::OpVersion* op;
    core::CaseRecord data;
};

Workload workload(std::int64_t elements) {
    const core::OpVersion* op = core::find_op_version("onnx.Mul-14");
    return {op, {.op = op, .a = filled({elements}, 1.5f), .b = filled({elements}, -0.75f)}};
}

// Median seconds per batch of `cases` evaluations; every case must end with `want`.
double seconds_per_batch(backends::Backend& backend, const Workload& w, int cases, int reps,
                         results::Status want) {
    std::int64_t id = 1;
    const judging::EvaluationSettings settings;
    const judging::CallRoute route{backend, id, runner::case_timeout({}, w.data)};
    return bench::time_median(
               [&] {
                   for (int i = 0; i < cases; ++i) {
                       const auto r = judging::evaluate_case(route, *w.op, w.data, settings);
                       if (r.verdict.status != want)
                           throw std::runtime_error("bench case ended " +
                                                    std::string(results::name(r.verdict.status)) +
                                                    ": " + r.verdict.message);
                   }
               },
               1, reps)
        .median_s;
}

std::unique_ptr<backends::Backend> hosted(const std::string& plugin) {
    return backends::start_process_backend({{ELTWISE_BENCH_HOST, plugin}});
}

// The rows of one --backend-cmd backend: small cases/s, and the 2^N rate against in process.
void print_other(const std::string& command, const Workload& small, const Workload& large,
                 int small_cases, int reps, double builtin_large_s) {
    auto backend = backends::start_process_backend({backends::split_command_line(command)});
    const double small_s =
        seconds_per_batch(*backend, small, small_cases, reps, results::Status::passed);
    const double large_s = seconds_per_batch(*backend, large, 1, reps, results::Status::passed);
    const double n = static_cast<double>(large.data.a.size());
    std::printf("| small cases/s, `%s` | %.0f |\n", command.c_str(), small_cases / small_s);
    std::printf("| validated Melem/s 2^%d f32, `%s` | %.0f |\n", static_cast<int>(std::log2(n)),
                command.c_str(), n / large_s / 1e6);
    std::printf("| ratio `%s` / in process (2^%d) | %.2f |\n", command.c_str(),
                static_cast<int>(std::log2(n)), builtin_large_s / large_s);
}

// The table: the built-in rows, then those of each --backend-cmd backend.
void measure(int small_cases, int reps, int log2_large, const std::vector<std::string>& others,
             int other_small_cases) {
    // Backends first, then the cases, as a run makes them (tensors made after a backend with the
    // input region has started lie in the shared tensor memory).
    auto trivial = hosted(ELTWISE_BENCH_TRIVIAL_PLUGIN);
    auto plugin = hosted(ELTWISE_BENCH_OPTIMIZED_PLUGIN);
    auto in_process = backends::make_builtin_backend("optimized");
    const Workload small = workload(16), large = workload(std::int64_t{1} << log2_large);

    // The trivial plugin writes zeros: its cases fail, which costs the same classification.
    const double trivial_s =
        seconds_per_batch(*trivial, small, small_cases, reps, results::Status::failed);
    const double plugin_small_s =
        seconds_per_batch(*plugin, small, small_cases, reps, results::Status::passed);
    const double builtin_small_s =
        seconds_per_batch(*in_process, small, small_cases, reps, results::Status::passed);
    const double plugin_large_s =
        seconds_per_batch(*plugin, large, 1, reps, results::Status::passed);
    const double builtin_large_s =
        seconds_per_batch(*in_process, large, 1, reps, results::Status::passed);

    const double n = static_cast<double>(large.data.a.size());
    std::printf("| measurement | value |\n|---|---|\n");
    std::printf("| small cases/s, host + trivial plugin | %.0f |\n", small_cases / trivial_s);
    std::printf("| small cases/s, host + optimized plugin | %.0f |\n",
                small_cases / plugin_small_s);
    std::printf("| small cases/s, built-in optimized (in process) | %.0f |\n",
                small_cases / builtin_small_s);
    std::printf("| validated Melem/s 2^%d f32, host + optimized plugin | %.0f |\n", log2_large,
                n / plugin_large_s / 1e6);
    std::printf("| validated Melem/s 2^%d f32, built-in optimized | %.0f |\n", log2_large,
                n / builtin_large_s / 1e6);
    std::printf("| ratio host / in process (2^%d) | %.2f |\n", log2_large,
                builtin_large_s / plugin_large_s);
    for (const std::string& command : others)
        print_other(command, small, large, other_small_cases, reps, builtin_large_s);
}

}  // namespace

int main(int argc, char** argv) {
    runner::restart_with_passive_openmp(argv);  // as eltwise-validate, whose path it measures
    core::reuse_large_buffers();                // as eltwise-validate does
    CLI::App app{"eltwise-protocol-bench: the cost of validating out of process"};
    int small_cases = 4000, reps = 7, log2_large = 24;
    app.add_option("--small-cases", small_cases, "Small cases per timed batch")
        ->capture_default_str();
    app.add_option("--reps", reps, "Timed repetitions (median)")->capture_default_str();
    app.add_option("--log2-elements", log2_large, "Size of the large cases")->capture_default_str();
    std::vector<std::string> others;
    int other_small_cases = 500;
    app.add_option("--backend-cmd", others, "Also measure this backend command (repeatable)");
    app.add_option("--other-small-cases", other_small_cases,
                   "Small cases per timed batch of a --backend-cmd backend")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        measure(small_cases, reps, log2_large, others, other_small_cases);
    } catch (const std::exception& e) {  // a backend that does not start, or answers wrongly
        std::fflush(stdout);
        std::fprintf(stderr, "eltwise-protocol-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
