#include "reports/junit_report.hpp"

#include <map>
#include <tuple>

#include "results/results_file.hpp"

namespace reports {
namespace {

using results::Status;

enum class Kind { passing, skipped, deviation };

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

std::string classname(const nlohmann::json& line) {
    const std::string op = line["op"];
    return (op.empty() ? "unbuilt" : op) + "." + line["dtype"].get<std::string>();
}

std::string categories_text(const nlohmann::json& categories) {
    std::string text;
    for (const auto& [name, count] : categories.items())
        text += (text.empty() ? "" : ", ") + name + " " + count.dump();
    return text;
}

std::string mismatch_text(const nlohmann::json& m) {
    std::string text = "  [" + m.value("index", nlohmann::json()).dump() + "] " +
                       m.value("category", "") + ": a=" + m.value("a", "") +
                       " b=" + m.value("b", "") + " expected " + m.value("expected", "") +
                       ", actual " + m.value("actual", "");
    if (m.contains("expected_bits"))
        text += " (bits a=" + m.value("a_bits", "") + " b=" + m.value("b_bits", "") + " expected " +
                m.value("expected_bits", "") + " actual " + m.value("actual_bits", "") + ")";
    return text + "\n";
}

std::string shapes_text(const nlohmann::json& line) {
    if (!line.contains("shapes") || line["shapes"].size() != 2) return "?";
    return line["shapes"][0].dump() + " x " + line["shapes"][1].dump();
}

// Everything GitLab can show of a deviation: what, where, why, the minimal case, how to replay.
std::string detailed_body(const nlohmann::json& line) {
    std::string body = line["status"].get<std::string>() + " " + line["op"].get<std::string>() +
                       " " + line["dtype"].get<std::string>() + ": shapes " + shapes_text(line) +
                       ", attributes " + line.value("attributes", nlohmann::json::object()).dump() +
                       (line.value("valid", true) ? "" : " (invalid input)") + "\n";
    if (line.contains("categories"))
        body += "categories: " + categories_text(line["categories"]) + "\n";
    body += line.value("message", "") + "\n";
    if (line.contains("minimal") && line.contains("mismatches")) {
        body += "first mismatches of the case:\n";
        for (const nlohmann::json& mismatch : line["mismatches"])
            body += mismatch_text(mismatch);
    }
    if (line.contains("minimal")) {
        const nlohmann::json& m = line["minimal"];
        body += "minimal case " + m.value("case", "") + ": shapes " + shapes_text(m) +
                ", attributes " + m.value("attributes", nlohmann::json::object()).dump() + "\n";
        for (const nlohmann::json& mismatch : m.value("mismatches", nlohmann::json::array()))
            body += mismatch_text(mismatch);
    }
    if (line.contains("replay")) body += "replay: " + line["replay"].get<std::string>() + "\n";
    if (line.contains("files")) {
        body += "files:\n";
        for (const nlohmann::json& f : line["files"])
            body += "  " + f.get<std::string>() + "\n";
    }
    return body;
}

std::string short_body(const nlohmann::json& line) {
    std::string body = line["status"].get<std::string>() + " " + line["op"].get<std::string>() +
                       " " + line["dtype"].get<std::string>() + "\n";
    if (line.contains("categories"))
        body += "categories: " + categories_text(line["categories"]) + "\n";
    const std::string message = line.value("message", "");
    body += message.substr(0, message.find('\n')) + "\n";
    if (line.contains("replay")) body += "replay: " + line["replay"].get<std::string>() + "\n";
    return body;
}

// <failure type="floor_vs_trunc,value"> for FAILED; the status name otherwise.
std::string deviation_element(const nlohmann::json& line, Status status, const std::string& body) {
    const std::string element = is_failure(status) ? "failure" : "error";
    std::string type = line["status"];
    if (status == Status::failed && line.contains("categories") && !line["categories"].empty()) {
        type.clear();
        for (const auto& [name, count] : line["categories"].items())
            type += (type.empty() ? "" : ",") + name;
    }
    const std::string message = line.value("message", "");
    return "<" + element + attribute("type", type) +
           attribute("message",
                     line["status"].get<std::string>() + ": " +
                         message.substr(0, std::min<std::size_t>(message.find('\n'), 200))) +
           ">" + xml_escaped(body) + "</" + element + ">";
}

std::string property(const std::string& name, const std::string& value) {
    return "<property" + attribute("name", name) + attribute("value", value) + "/>\n";
}

// "x86_64 'AMD EPYC 7763' avx2 fma ... (capped to avx2)": the platform the verdicts hold on.
std::string platform_text(const nlohmann::json& p) {
    std::string text = p.value("arch", "") + " '" + p.value("cpu_model", "") + "'";
    for (const auto& f : p.value("cpu_features", nlohmann::json::array()))
        if (f.is_string()) text += " " + f.get<std::string>();
    if (p.contains("isa_cap")) text += " (capped to " + p.value("isa_cap", "") + ")";
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
    std::map<std::tuple<std::string, std::string, std::string>, Fold>
        folds;  // class, source, status

    std::size_t budget(Kind k) const {
        return k == Kind::passing   ? limits.passing_bytes
               : k == Kind::skipped ? limits.skipped_bytes
                                    : limits.deviation_bytes;
    }

    void count(Status status) {
        ++tests;
        if (kind_of(status) == Kind::skipped) ++skipped;
        if (kind_of(status) == Kind::deviation) ++(is_failure(status) ? failures : errors);
    }

    void add(const nlohmann::json& line) {
        const Status status = *results::parse_status(line["status"].get<std::string>());
        const Kind kind = kind_of(status);
        const double time = line.value("seconds", 0.0);
        seconds += time;
        const bool exhaustive = line["source"].get<std::string>().starts_with("exhaustive");
        if ((kind == Kind::passing && exhaustive) || bytes[kind] >= budget(kind)) {
            Fold& f = folds[{classname(line), line["source"], line["status"]}];
            ++f.cases;
            f.seconds += time;
            return;
        }
        const std::string element = testcase(line, status, kind, time);
        bytes[kind] += element.size();
        cases += element;
        count(status);
    }

    std::string testcase(const nlohmann::json& line, Status status, Kind kind, double time) {
        std::string xml = "<testcase" + attribute("classname", classname(line)) +
                          attribute("name", line["case"]) + attribute("time", std::to_string(time));
        if (kind == Kind::passing && line.contains("declared"))
            return xml + "><properties>" + property("declared", line["declared"].dump()) +
                   "</properties></testcase>\n";
        if (kind == Kind::passing) return xml + "/>\n";
        if (kind == Kind::skipped)
            return xml + "><skipped" +
                   attribute("message", clipped(line.value("message", ""), 300)) +
                   "/></testcase>\n";
        const bool detail = detailed++ < limits.detailed;
        const std::string body = detail ? clipped(detailed_body(line), limits.detail_chars)
                                        : clipped(short_body(line), limits.short_chars);
        return xml + ">" + deviation_element(line, status, body) + "</testcase>\n";
    }

    // One testcase per folded group: its name says how many cases it stands for.
    void add_folds() {
        for (const auto& [key, fold] : folds) {
            const auto& [cls, source, status_name] = key;
            const Status status = *results::parse_status(status_name);
            const std::string n = std::to_string(fold.cases);
            const std::string what = n + " " + status_name +
                                     (fold.cases == 1 ? " case" : " cases") + " of source " +
                                     source;
            cases += "<testcase" + attribute("classname", cls) +
                     attribute("name", source + ": " + what + " (folded)") +
                     attribute("time", std::to_string(fold.seconds)) + ">";
            const std::string note =
                what + " are folded into this testcase; results.jsonl has each.";
            if (kind_of(status) == Kind::passing)
                cases += "<system-out>" + xml_escaped(note) + "</system-out>";
            else if (kind_of(status) == Kind::skipped)
                cases += "<skipped" + attribute("message", note) + "/>";
            else
                cases += "<" + std::string(is_failure(status) ? "failure" : "error") +
                         attribute("type", status_name) + attribute("message", note) + ">" +
                         xml_escaped(note) + "</" + (is_failure(status) ? "failure" : "error") +
                         ">";
            cases += "</testcase>\n";
            folded_cases += fold.cases;
            count(status);
        }
    }
};

std::string properties(const BackendReport& b, std::int64_t folded_cases) {
    std::string xml = "<properties>\n" + property("backend", b.name) +
                      property("backend_version", b.version) +
                      property("cases", std::to_string(sum(b.totals))) +
                      property("cases_folded", std::to_string(folded_cases));
    for (const nlohmann::json& run : b.runs) {
        xml += property("results", run.value("file", ""));
        xml += property("command_line", run.value("command_line", ""));
        xml += property("seed", run.contains("seed") ? run["seed"].dump() : "");
        xml += property("policy", run.value("policy", nlohmann::json::object()).dump());
        if (run.contains("platform")) xml += property("platform", platform_text(run["platform"]));
        if (run.contains("error")) xml += property("run_error", run.value("error", ""));
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
        for (const nlohmann::json& run : b.runs)
            results::read_results(
                run["file"], [](const nlohmann::json&) {},
                [&](const nlohmann::json& line) {
                    // a file run in several graph forms has a suite per form
                    if (line.value("graph_form", "runtime") == b.graph_form) w.add(line);
                });
        w.add_folds();
        bytes = w.bytes;
        detailed = w.detailed;
        const std::string started = b.runs.empty() ? "" : b.runs[0].value("started", "");
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
