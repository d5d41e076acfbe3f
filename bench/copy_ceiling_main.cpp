// eltwise-copy-ceiling: the memory-bandwidth ceiling of a workload that moves N bytes, as one
// JSON line (median of --reps runs of bench::CopyCeiling, the copy eltwise-bench uses), so
// scripts that time another program (bench/exhaustive16_benchmark.sh) compare against the
// same copy loop instead of a second one.
#include <omp.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bench/copy_ceiling.hpp"
#include "bench/median_timer.hpp"

namespace {

struct Options {
    std::int64_t bytes = 0;
    int reps = 5;
    int warmup = 1;
};

nlohmann::json measure(const Options& o) {
    bench::CopyCeiling copy(static_cast<std::size_t>(o.bytes));
    const bench::Timing t = bench::time_median([&] { copy.run(); }, o.warmup, o.reps);
    const auto moved = static_cast<std::int64_t>(copy.bytes_moved());
    return {{"impl", "copy"},
            {"status", "ok"},
            {"bytes", moved},
            {"median_s", t.median_s},
            {"reps", t.reps},
            {"gb_per_s", static_cast<double>(moved) / t.median_s * 1e-9},
            {"threads", omp_get_max_threads()}};
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"eltwise-copy-ceiling: parallel memcpy bandwidth for a workload moving N bytes"};
    app.add_option("--bytes", o.bytes, "bytes the workload moves (read + written)")
        ->required()
        ->check(CLI::Range(std::int64_t{128}, std::int64_t{1} << 40));
    app.add_option("--reps", o.reps, "timed copies (median reported)")->check(CLI::PositiveNumber);
    app.add_option("--warmup", o.warmup, "untimed copies before timing")
        ->check(CLI::NonNegativeNumber);
    CLI11_PARSE(app, argc, argv);
    std::cout << measure(o).dump() << '\n';
    return 0;
}
