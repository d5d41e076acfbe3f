// Median-of-N wall-clock timing.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {

struct Timing {
    double median_s = 0;
    int reps = 0;
};

// Runs f `warmup` times untimed, then `reps` times timed; returns the median (reps >= 1).
template <class F>
Timing time_median(F&& f, int warmup, int reps) {
    for (int i = 0; i < warmup; ++i)
        f();
    std::vector<double> seconds;
    for (int i = 0; i < reps; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        const auto stop = std::chrono::steady_clock::now();
        seconds.push_back(std::chrono::duration<double>(stop - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t n = seconds.size();
    const double median = n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
    return {median, reps};
}

}  // namespace bench
