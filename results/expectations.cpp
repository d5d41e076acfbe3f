#include "results/expectations.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/graph_form.hpp"
#include "io/json_output.hpp"

namespace results {

std::vector<Expectation> read_expectations(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw core::Error(core::ErrorKind::input, "cannot open expectations file " + path);
    std::vector<Expectation> out;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        text = text.substr(0, text.find('#'));
        std::istringstream words(text);
        std::string pattern, status, extra;
        if (!(words >> pattern)) continue;
        // "FAILED?": may deviate (the outcome depends on the CPU); passing is no news then.
        const bool optional = words >> status && status.ends_with('?');
        if (optional) status.pop_back();
        const auto parsed = status.empty() ? std::nullopt : parse_status(status);
        if (!parsed || (words >> extra))
            throw core::Error(core::ErrorKind::input,
                              path + ":" + std::to_string(line) +
                                  ": expected `PATTERN STATUS[?]` with STATUS one of PASSED, "
                                  "FAILED, REJECTED_VALID, ACCEPTED_INVALID, UNSUPPORTED, "
                                  "CRASHED, HUNG, PROTOCOL_ERROR, ERROR, SKIPPED");
        out.push_back({pattern, *parsed, line, optional});
    }
    return out;
}

namespace {

const Expectation* matching(const std::vector<Expectation>& e, const std::string& id,
                            Status status) {
    for (const Expectation& x : e)
        if (x.status == status && fnmatch(x.pattern.c_str(), id.c_str(), 0) == 0) return &x;
    return nullptr;
}

}  // namespace

const Expectation* find_expectation(const std::vector<Expectation>& e, const std::string& id,
                                    Status status) {
    if (const Expectation* x = matching(e, id, status)) return x;
    // A deviation known in the runtime form is the same finding in any other form, when it ends
    // the same way there.
    const std::string_view runtime = core::runtime_id(id);
    return runtime.size() == id.size() ? nullptr : matching(e, std::string(runtime), status);
}

bool is_named(const std::vector<Expectation>& e, const std::string& id) {
    return std::any_of(e.begin(), e.end(), [&](const Expectation& x) {
        return !x.optional && fnmatch(x.pattern.c_str(), id.c_str(), 0) == 0;
    });
}

Baseline baseline_outcome(bool have_baseline, const std::vector<Expectation>& e,
                          const std::string& id, Status status) {
    if (!have_baseline) return Baseline::none;
    if (is_deviation(status))
        return find_expectation(e, id, status) ? Baseline::accepted : Baseline::new_;
    // REFUSED_UNDEFINED passes too: the defined elements all matched (as the runner judges).
    const bool passes = status == Status::passed || status == Status::refused_undefined;
    return passes && is_named(e, id) ? Baseline::now_passes : Baseline::none;
}

void write_expectations(const std::string& path, std::vector<Deviation> deviations) {
    std::sort(deviations.begin(), deviations.end(),
              [](const Deviation& x, const Deviation& y) { return x.id < y.id; });
    std::string text =
        "# eltwise-validate expectations: PATTERN STATUS per line (glob patterns over case ids)\n";
    for (const Deviation& d : deviations)
        text += d.id + " " + std::string(name(d.status)) + "\n";
    io::write_text_file(path, text);
}

}  // namespace results
