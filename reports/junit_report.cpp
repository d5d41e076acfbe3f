#include "reports/junit_report.hpp"

#include <map>
#include <tuple>

#include "results/results_file.hpp"

namespace reports {
namespace {

using results::Status;

enum class Kind { passing, skipped, deviation };

Kind kind_of(Status s);

// A deviation the run's --expected baseline accepts is no new result: skipped, with a message
// naming the baseline, rather than passed. CI stays green on it as on a pass, yet dashboards
// (GitLab, GitHub, xunit-viewer) keep counting and showing it apart from what conforms: the
// library still deviates, the baseline only says that this is known.
Kind kind_of(const results::CaseLine& line) {
    return line.baseline == results::Baseline::accepted ? Kind::skipped
                                                        : kind_of(line.verdict.status);
}

Kind kind_of(Status s) {
    // REFUSED_UNDEFINED: every defined element was compared and matched.
    // DEVIATES_AS_DECLARED: what the backend's profile declares; CI must not fail on it (its
    // testcase carries the declared behaviours as properties).
    if (s == Status::passed || s == Status::refused_undefined || s == Status::deviates_as_declared)
        return Kind::passing;
    if (s == Status::unsupported || s == Status::skipped) return Kind::skipped;
    return Kind::deviation;
}

// FAILED and the invalid/valid mix-ups are wrong answers; the rest of the deviations are
// faults of the backend or the suite (backends/PROTOCOL.md section 10).
bool is_failure(Status s) {
    return s == Status::failed || s == Status::accepted_invalid || s == Status::rejected_valid;
}

std::string attribute(const char* name, const std::string& value) {
    return std::string(" ") + name + "=\"" + xml_escaped(value) + "\"";
}

std::string clipped(const std::string& text, std::size_t chars) {
    return text.size() <= chars ? text : text.substr(0, chars) + "\n... (cut; see results.jsonl)";
}

std::string classname(const results::CaseLine& line) {
    return (line.op.empty() ? "unbuilt" : line.op) + "." + line.dtype;
}

std::string categories_text(const comparison::CategoryCounts& categories) {
    std::string text;
    for (const auto& [category, count] : categories)
        text += (text.empty() ? "" : ", ") + std::string(comparison::name(category)) + " " +
                std::to_string(count);
    return text;
}

std::string mismatch_text(const comparison::Mismatch& m) {
    std::string text = "  [" + std::to_string(m.index) + "] " +
                       std::string(comparison::name(m.category)) + ": a=" + m.a + " b=" + m.b +
                       " expected " + m.expected + ", actual " + m.actual;
    if (!m.expected_bits.empty())
        text += " (bits a=" + m.a_bits + " b=" + m.b_bits + " expected " + m.expected_bits +
                " actual " + m.actual_bits + ")";
    return text + "\n";
}

std::string shapes_text(const std::vector<results::Shape>& shapes) {
    if (shapes.size() != 2) return "?";
    return nlohmann::json(shapes[0]).dump() + " x " + nlohmann::json(shapes[1]).dump();
}

std::string status_text(const results::CaseLine& line) {
    return std::string(results::name(line.verdict.status));
}

// Everything GitLab can show of a deviation: what, where, why, the minimal case, how to replay.
std::string detailed_body(const results::CaseLine& line) {
    const results::Verdict& v = line.verdict;
    std::string body = status_text(line) + " " + line.op + " " + line.dtype + ": shapes " +
                       shapes_text(line.shapes) + ", attributes " +
                       nlohmann::json(line.attributes).dump() +
                       (line.valid ? "" : " (invalid input)") + "\n";
    if (!v.categories.empty()) body += "categories: " + categories_text(v.categories) + "\n";
    body += v.message + "\n";
    if (line.minimal && !v.mismatches.empty()) {
        body += "first mismatches of the case:\n";
        for (const comparison::Mismatch& m : v.mismatches)
            body += mismatch_text(m);
    }
    if (line.minimal) {
        const results::MinimalCase& m = *line.minimal;
        body += "minimal case " + m.id + ": shapes " + shapes_text(m.shapes) + ", attributes " +
                nlohmann::json(m.attributes).dump() + "\n";
        for (const comparison::Mismatch& mismatch : m.verdict.mismatches)
            body += mismatch_text(mismatch);
    }
    if (!line.replay.empty()) body += "replay: " + line.replay + "\n";
    if (!line.files.empty()) {
        body += "files:\n";
        for (const std::string& f : line.files)
            body += "  " + f + "\n";
    }
    return body;
}

std::string short_body(const results::CaseLine& line) {
    std::string body = status_text(line) + " " + line.op + " " + line.dtype + "\n";
    if (!line.verdict.categories.empty())
        body += "categories: " + categories_text(line.verdict.categories) + "\n";
    const std::string& message = line.verdict.message;
    body += message.substr(0, message.find('\n')) + "\n";
    if (!line.replay.empty()) body += "replay: " + line.replay + "\n";
    return body;
}

// <failure type="floor_vs_trunc,value"> for FAILED; the status name otherwise.
std::string deviation_element(const results::CaseLine& line, Status status,
                              const std::string& body) {
    const std::string element = is_failure(status) ? "failure" : "error";
    std::string type = status_text(line);
    if (status == Status::failed && !line.verdict.categories.empty()) {
        type.clear();
        for (const auto& [category, count] : line.verdict.categories)
            type += (type.empty() ? "" : ",") + std::string(comparison::name(category));
    }
    const std::string& message = line.verdict.message;
    return "<" + element + attribute("type", type) +
           attribute("message",
                     status_text(line) + ": " +
                         message.substr(0, std::min<std::size_t>(message.find('\n'), 200))) +
           ">" + xml_escaped(body) + "</" + element + ">";
}

std::string property(const std::string& name, const std::string& value) {
    return "<property" + attribute("name", name) + attribute("value", value) + "/>\n";
}

// "x86_64 'AMD EPYC 7763' avx2 fma ... (capped to avx2)": the platform the verdicts hold on.
std::string platform_text(const results::PlatformRecord& p) {
    std::string text = p.arch + " '" + p.cpu_model + "'";
    for (const std::string& f : p.cpu_features)
        text += " " + f;
    if (!p.isa_cap.empty()) text += " (capped to " + p.isa_cap + ")";
    if (p.gpu.present()) text += " GPU " + platform::describe(p.gpu);
    return text;
}

struct Fold {
    std::int64_t cases = 0;
    double seconds = 0;
};

struct SuiteWriter {
    const JunitLimits& limits;
    std::map<Kind, std::size_t> bytes;
    std::size_t detailed = 0;
    std::string cases;  // the <testcase> elements
    std::int64_t tests = 0, failures = 0, errors = 0, skipped = 0, folded_cases = 0;
    double seconds = 0;
    std::map<std::tuple<std::string, std::string, std::string, Kind>, Fold>
        folds;  // class, source, status, kind (an accepted deviation folds apart from new ones)

    std::size_t budget(Kind k) const {
        return k == Kind::passing   ? limits.passing_bytes
               : k == Kind::skipped ? limits.skipped_bytes
                                    : limits.deviation_bytes;
    }

    void count(Kind kind, Status status) {
        ++tests;
        if (kind == Kind::skipped) ++skipped;
        if (kind == Kind::deviation) ++(is_failure(status) ? failures : errors);
    }

    void add(const results::CaseLine& line) {
        const Status status = line.verdict.status;
        const Kind kind = kind_of(line);
        const double time = line.seconds;
        seconds += time;
        const bool exhaustive = line.source.starts_with("exhaustive");
        if ((kind == Kind::passing && exhaustive) || bytes[kind] >= budget(kind)) {
            Fold& f = folds[{classname(line), line.source, status_text(line), kind}];
            ++f.cases;
            f.seconds += time;
            return;
        }
        const std::string element = testcase(line, status, kind, time);
        bytes[kind] += element.size();
        cases += element;
        count(kind, status);
    }

    std::string testcase(const results::CaseLine& line, Status status, Kind kind, double time) {
        std::string xml = "<testcase" + attribute("classname", classname(line)) +
                          attribute("name", line.id) + attribute("time", std::to_string(time));
        if (kind == Kind::passing && !line.verdict.declared.empty())
            return xml + "><properties>" +
                   property("declared", nlohmann::json(line.verdict.declared).dump()) +
                   "</properties></testcase>\n";
        if (kind == Kind::passing) return xml + "/>\n";
        if (kind == Kind::skipped && line.baseline == results::Baseline::accepted)
            return xml + "><skipped" +
                   attribute("message",
                             "accepted by the baseline (--expected): " + status_text(line) + ": " +
                                 clipped(line.verdict.message, 240)) +
                   "/><system-out>" + xml_escaped(short_body(line)) + "</system-out></testcase>\n";
        if (kind == Kind::skipped)
            return xml + "><skipped" + attribute("message", clipped(line.verdict.message, 300)) +
                   "/></testcase>\n";
        const bool detail = detailed++ < limits.detailed;
        const std::string body = detail ? clipped(detailed_body(line), limits.detail_chars)
                                        : clipped(short_body(line), limits.short_chars);
        return xml + ">" + deviation_element(line, status, body) + "</testcase>\n";
    }

    // One testcase per folded group: its name says how many cases it stands for.
    void add_folds() {
        for (const auto& [key, fold] : folds) {
            const auto& [cls, source, status_name, kind] = key;
            const Status status = *results::parse_status(status_name);
            const std::string n = std::to_string(fold.cases);
            const std::string what = n + " " + status_name +
                                     (fold.cases == 1 ? " case" : " cases") + " of source " +
                                     source +
                                     (kind == Kind::skipped && results::is_deviation(status)
                                          ? " accepted by the baseline (--expected)"
                                          : "");
            cases += "<testcase" + attribute("classname", cls) +
                     attribute("name", source + ": " + what + " (folded)") +
                     attribute("time", std::to_string(fold.seconds)) + ">";
            const std::string note =
                what + " are folded into this testcase; results.jsonl has each.";
            if (kind == Kind::passing)
                cases += "<system-out>" + xml_escaped(note) + "</system-out>";
            else if (kind == Kind::skipped)
                cases += "<skipped" + attribute("message", note) + "/>";
            else
                cases += "<" + std::string(is_failure(status) ? "failure" : "error") +
                         attribute("type", status_name) + attribute("message", note) + ">" +
                         xml_escaped(note) + "</" + (is_failure(status) ? "failure" : "error") +
                         ">";
            cases += "</testcase>\n";
            folded_cases += fold.cases;
            count(kind, status);
        }
    }
};

std::string properties(const BackendReport& b, std::int64_t folded_cases) {
    std::string xml = "<properties>\n" + property("backend", b.name) +
                      property("backend_version", b.version) +
                      property("cases", std::to_string(sum(b.totals))) +
                      property("cases_folded", std::to_string(folded_cases));
    for (const RunOfFile& r : b.runs) {
        xml += property("results", r.file);
        xml += property("command_line", r.run.command_line);
        xml += property("seed", std::to_string(r.run.seed));
        xml += property("policy", results::policy_text(r.run));
        if (r.run.platform) xml += property("platform", platform_text(*r.run.platform));
        if (!r.run.error.empty()) xml += property("run_error", r.run.error);
    }
    return xml + "</properties>\n";
}

std::string counts_attributes(std::int64_t tests, std::int64_t failures, std::int64_t errors,
                              std::int64_t skipped, double seconds) {
    return attribute("tests", std::to_string(tests)) +
           attribute("failures", std::to_string(failures)) +
           attribute("errors", std::to_string(errors)) +
           attribute("skipped", std::to_string(skipped)) +
           attribute("time", std::to_string(seconds));
}

}  // namespace

std::string xml_escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '"')
            out += "&quot;";
        else if (c == '\'')
            out += "&apos;";
        else if (u < 0x20 && c != '\t' && c != '\n' && c != '\r')
            out += '?';
        else if (u == 0x7f)
            out += '?';
        else
            out += c;
    }
    return out;
}

std::string junit_xml(const ReportData& data, const JunitLimits& limits) {
    std::string suites;
    std::int64_t tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    std::map<Kind, std::size_t> bytes;  // budgets are per file, shared by its suites
    std::size_t detailed = 0;
    for (const BackendReport& b : data.backends) {
        SuiteWriter w{limits, bytes, detailed, {}, 0, 0, 0, 0, 0, 0, {}};
        for (const RunOfFile& r : b.runs)
            results::read_results(
                r.file, [](const results::RunLine&) {},
                [&](const results::CaseLine& line) {
                    // a file run in several graph forms has a suite per form
                    if (line.graph_form == b.graph_form) w.add(line);
                });
        w.add_folds();
        bytes = w.bytes;
        detailed = w.detailed;
        const std::string started = b.runs.empty() ? "" : b.runs[0].run.started;
        suites += "<testsuite" + attribute("name", b.label) +
                  counts_attributes(w.tests, w.failures, w.errors, w.skipped, w.seconds) +
                  (started.empty() ? "" : attribute("timestamp", started.substr(0, 19))) + ">\n" +
                  properties(b, w.folded_cases) + w.cases + "</testsuite>\n";
        tests += w.tests;
        failures += w.failures;
        errors += w.errors;
        skipped += w.skipped;
        seconds += w.seconds;
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
           attribute("name", "eltwise-validate") +
           counts_attributes(tests, failures, errors, skipped, seconds) + ">\n" + suites +
           "</testsuites>\n";
}

}  // namespace reports
