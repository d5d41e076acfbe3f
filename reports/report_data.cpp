#include "reports/report_data.hpp"

#include <algorithm>
#include <ctime>
#include <limits>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "core/op_table.hpp"
#include "results/results_file.hpp"

namespace reports {
namespace {

using results::Status;

std::size_t index_of(Status s) {
    return static_cast<std::size_t>(s);
}

std::string now_text() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

// The name a backend goes by in reports: the run's --label, else the hello's name and version.
std::string plain_label(const results::RunLine& run, const std::string& file) {
    if (!run.label.empty()) return run.label;
    if (!run.backend) return "no backend (" + file + ")";
    const std::string& name = run.backend->name;
    const std::string& version = run.backend->version;
    std::string label = version.empty() ? name : name + " " + version;
    // A verdict names its platform: a capped or emulated run is a column of its own.
    const results::PlatformRecord platform = run.platform.value_or(results::PlatformRecord{});
    if (!platform.emulator.empty())
        label += " (" + platform.name + ", emulated)";
    else if (!platform.isa_cap.empty())
        label += " (isa cap " + platform.isa_cap + ")";
    // And a GPU path names its GPU: the same library on two adapters is two columns.
    if (platform.gpu.present())
        label += " (" + platform.gpu.api + " on " + platform::short_name(platform.gpu) + ")";
    return label;
}

// Files with the same key are one backend: the same label, hello and backend command.
std::string backend_key(const results::RunLine& run, const std::string& file) {
    results::RunLine parts;  // the backend, its command and its platform
    parts.backend = run.backend;
    parts.backend_command = run.backend_command;
    parts.platform = run.platform;
    return plain_label(run, file) + "\n" + results::to_json(parts).dump();
}

// "python3 planted_bug_backend.py --bug ftz": the command with paths cut to file names.
std::string short_command(const std::string& command) {
    std::string out;
    std::size_t start = 0;
    while (start < command.size()) {
        std::size_t end = command.find(' ', start);
        if (end == std::string::npos) end = command.size();
        std::string word = command.substr(start, end - start);
        if (const std::size_t slash = word.rfind('/');
            slash != std::string::npos && !word.starts_with("-"))
            word = word.substr(slash + 1);
        if (!word.empty()) out += (out.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return out;
}

// Labels by key. Two backends that would share a label (two planted bugs behind one hello)
// are told apart by their commands.
std::map<std::string, std::string> labels_of(const std::vector<std::string>& files,
                                             std::vector<std::string>& keys);

// The run line of a file: the backend it belongs to is known before its cases are read.
results::RunLine first_run_line(const std::string& file) {
    results::RunLine found;
    struct Stop {};
    try {
        results::read_results(
            file,
            [&](const results::RunLine& run) {
                found = run;
                throw Stop{};
            },
            [](const results::CaseLine&) {});
    } catch (const Stop&) {
        return found;
    }
    throw core::Error(core::ErrorKind::input, file + ": no run line: not a results.jsonl file");
}

// The first `limit` mismatches, and the first one of each category beyond them.
std::vector<comparison::Mismatch> first_of_each_category(
    const std::vector<comparison::Mismatch>& list, std::size_t limit) {
    std::vector<comparison::Mismatch> out;
    std::set<comparison::Category> shown;
    for (const comparison::Mismatch& m : list) {
        if (out.size() < limit || !shown.count(m.category)) out.push_back(m);
        shown.insert(m.category);
    }
    return out;
}

void trim(results::Verdict& v, const Limits& limits) {
    if (v.message.size() > limits.message_chars)
        v.message = v.message.substr(0, limits.message_chars) + " ...";
    if (v.mismatches.size() > limits.mismatches)
        v.mismatches = first_of_each_category(v.mismatches, limits.mismatches);
}

// A failure as reports list it: the minimal case's mismatches stand for the case's own, except
// for an exhaustive block, whose own mismatches are the first pairs of each category.
results::CaseLine trimmed_failure(results::CaseLine line, const Limits& limits) {
    trim(line.verdict, limits);
    if (line.minimal) {
        trim(line.minimal->verdict, limits);
        if (!line.source.starts_with("exhaustive")) line.verdict.mismatches.clear();
    }
    return line;
}

// What one case got from each backend, for finding disagreements.
struct Verdicts {
    std::string op, dtype;
    std::vector<std::uint8_t> statuses;  // per backend: status index + 1, 0 when not run
};

// What one backend gave one case in each graph form, for finding forms that disagree.
struct FormVerdicts {
    std::string op, dtype;
    std::vector<std::pair<std::string, Status>> forms;
};

struct Collector {
    const Limits& limits;
    bool several_backends = false;
    std::size_t failures_cap = 0;  // per backend
    ReportData data;
    std::map<std::string, std::string> label_of_key;
    std::vector<std::string> keys;  // of each file, in order
    std::map<std::string, std::size_t> backend_of_key;
    std::unordered_map<std::string, Verdicts> verdicts;  // by case id; several backends only
    // Per (backend, op, dtype, kind): each kind of deviation (new, accepted by the baseline,
    // declared by the profile) has its own share of a cell, so that no kind hides another.
    std::map<std::tuple<std::size_t, std::string, std::string, int>, std::size_t> listed_per_cell;
    // By (backend, case id without the form), for files whose runs have several graph forms.
    std::map<std::pair<std::size_t, std::string>, FormVerdicts> form_verdicts{};
    std::map<std::pair<std::size_t, std::string>, std::size_t> backend_of_form{};

    std::size_t backend_for(const results::RunLine& run, const std::string& key) {
        const auto [it, added] = backend_of_key.emplace(key, data.backends.size());
        if (added) {
            BackendReport b;
            b.label = label_of_key.at(key);
            if (run.backend) {
                b.name = run.backend->name;
                b.version = run.backend->version;
                b.claims = run.backend->ops;
            }
            data.backends.push_back(std::move(b));
        }
        return it->second;
    }

    void add_case(std::size_t backend, const results::CaseLine& line) {
        BackendReport& b = data.backends[backend];
        const Status status = line.verdict.status;
        const std::string& op = line.op;
        const std::string& dtype = line.dtype;
        ++b.totals[index_of(status)];
        ++b.cells[op][dtype][index_of(status)];
        b.case_seconds += line.seconds;
        b.compilations += line.compilations;
        if (status == Status::failed)
            for (const auto& [category, count] : line.verdict.categories) {
                ++b.categories[category].cases;
                // Counts are at most 2^40 each (read_results); the sum saturates, never wraps.
                std::int64_t& elements = b.categories[category].elements;
                if (__builtin_add_overflow(elements, count, &elements))
                    elements = std::numeric_limits<std::int64_t>::max();
            }
        if (results::is_deviation(status)) {
            ++b.failures_total;
            if (line.baseline == results::Baseline::accepted) ++b.accepted_total;
            list_case(backend, op, dtype, line);
        } else if (status == Status::deviates_as_declared) {
            ++b.declared_total;
            list_case(backend, op, dtype, line);
        }
        if (several_backends) note_verdict(backend, line, status);
    }

    void list_case(std::size_t backend, const std::string& op, const std::string& dtype,
                   const results::CaseLine& line) {
        BackendReport& b = data.backends[backend];
        const int kind = line.verdict.status == Status::deviates_as_declared ? 0
                         : line.baseline == results::Baseline::accepted      ? 1
                                                                             : 2;
        std::size_t& in_cell = listed_per_cell[{backend, op, dtype, kind}];
        if (b.failures.size() >= failures_cap || in_cell >= limits.failures_per_cell) return;
        ++in_cell;
        b.failures.push_back(trimmed_failure(line, limits));
    }

    // The failures listed stay within limits.failures in all, shared evenly: graph forms add
    // backends while the files are read, after the per-backend cap was set. A backend over its
    // share keeps the first failure of every cell, then the second of every cell, and so on.
    void share_failures() {
        const std::size_t share = std::max<std::size_t>(
            1, limits.failures / std::max<std::size_t>(1, data.backends.size()));
        for (BackendReport& b : data.backends)
            if (b.failures.size() > share) b.failures = first_of_each_cell(b.failures, share);
    }

    static std::vector<results::CaseLine> first_of_each_cell(
        const std::vector<results::CaseLine>& all, std::size_t keep) {
        std::map<std::string, std::size_t> seen;                // cell -> failures of it met so far
        std::vector<std::pair<std::size_t, std::size_t>> rank;  // (k-th of its cell, index)
        for (std::size_t i = 0; i < all.size(); ++i)
            rank.emplace_back(seen[all[i].op + " " + all[i].dtype]++, i);
        std::sort(rank.begin(), rank.end());
        rank.resize(keep);
        std::sort(rank.begin(), rank.end(), [](auto x, auto y) { return x.second < y.second; });
        std::vector<results::CaseLine> kept;
        for (const auto& [k, i] : rank)
            kept.push_back(all[i]);
        return kept;
    }

    void note_verdict(std::size_t backend, const results::CaseLine& line, Status status) {
        Verdicts& v = verdicts[line.id];
        if (v.statuses.empty()) {
            v.op = line.op;
            v.dtype = line.dtype;
        }
        if (v.statuses.size() <= backend) v.statuses.resize(backend + 1);
        v.statuses[backend] = static_cast<std::uint8_t>(index_of(status) + 1);
    }

    // A graph form other than runtime is a backend of its own in reports: "label [const-b]".
    std::size_t backend_in_form(std::size_t backend, const std::string& form) {
        if (form == "runtime") return backend;
        const auto [it, added] = backend_of_form.emplace(std::pair(backend, form), 0);
        if (added) {
            BackendReport b = data.backends[backend];
            b.label += " [" + form + "]";
            b.graph_form = form;
            b.totals = {};
            b.cells.clear();
            b.categories.clear();
            b.failures.clear();
            b.failures_total = b.accepted_total = b.declared_total = 0;
            it->second = data.backends.size();
            data.backends.push_back(std::move(b));
        }
        return it->second;
    }

    void note_form(std::size_t backend, const results::CaseLine& line) {
        const std::string& form = line.graph_form;
        std::string id = line.id;
        if (form != "runtime" && id.starts_with(form + "/")) id.erase(0, form.size() + 1);
        FormVerdicts& v = form_verdicts[{backend, id}];
        if (v.forms.empty()) {
            v.op = line.op;
            v.dtype = line.dtype;
        }
        v.forms.emplace_back(form, line.verdict.status);
    }

    void read(const std::string& file, const std::string& key) {
        std::size_t backend = 0;
        bool several_forms = false;
        results::read_results(
            file,
            [&](const results::RunLine& run) {
                backend = backend_for(run, key);
                several_forms = run.options && run.options->graph_forms.size() > 1;
                results::RunLine shown = run;
                shown.backend.reset();  // the report has the backend's own entry
                data.backends[backend].runs.push_back({file, std::move(shown)});
            },
            [&](const results::CaseLine& line) {
                if (several_forms) note_form(backend, line);
                add_case(backend_in_form(backend, line.graph_form), line);
            });
    }

    void list_form_disagreements();

    std::optional<nlohmann::json> disagreement(const std::string& id, const Verdicts& v) const;
    void list_disagreements();
};

// Several backends gave a verdict (not UNSUPPORTED or SKIPPED) and the verdicts differ.
std::optional<nlohmann::json> Collector::disagreement(const std::string& id,
                                                      const Verdicts& v) const {
    std::vector<std::uint8_t> judged;
    for (std::uint8_t s : v.statuses) {
        if (s == 0) continue;
        const Status status = results::kStatuses[s - 1u];
        if (status != Status::unsupported && status != Status::skipped) judged.push_back(s);
    }
    if (judged.size() < 2 ||
        std::all_of(judged.begin(), judged.end(), [&](std::uint8_t s) { return s == judged[0]; }))
        return std::nullopt;
    nlohmann::json statuses = nlohmann::json::object();
    for (std::size_t i = 0; i < v.statuses.size(); ++i)
        if (v.statuses[i])
            statuses[data.backends[i].label] =
                results::name(results::kStatuses[v.statuses[i] - 1u]);
    return nlohmann::json{{"case", id}, {"op", v.op}, {"dtype", v.dtype}, {"statuses", statuses}};
}

// Sorted by case id, so that the list does not depend on hashing.
void Collector::list_disagreements() {
    std::vector<std::pair<std::string, nlohmann::json>> all;  // by case id
    for (const auto& [id, v] : verdicts)
        if (auto d = disagreement(id, v)) all.emplace_back(id, std::move(*d));
    std::sort(all.begin(), all.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    data.disagreements_total = static_cast<std::int64_t>(all.size());
    if (all.size() > limits.disagreements) all.resize(limits.disagreements);
    for (auto& [id, d] : all)
        data.disagreements.push_back(std::move(d));
}

// A case whose judged statuses (not UNSUPPORTED or SKIPPED) differ between graph forms of one
// backend: its own finding, each form's status side by side. Sorted by backend, then case id.
void Collector::list_form_disagreements() {
    std::vector<nlohmann::json> all;
    for (const auto& [key, v] : form_verdicts) {
        nlohmann::json forms = nlohmann::json::object();
        std::set<Status> judged;
        for (const auto& [form, status] : v.forms) {
            forms[form] = results::name(status);
            if (status != Status::unsupported && status != Status::skipped) judged.insert(status);
        }
        if (judged.size() < 2) continue;
        all.push_back({{"backend", data.backends[key.first].label},
                       {"case", key.second},
                       {"op", v.op},
                       {"dtype", v.dtype},
                       {"forms", forms}});
    }
    data.form_disagreements_total = static_cast<std::int64_t>(all.size());
    if (all.size() > limits.disagreements) all.resize(limits.disagreements);
    data.form_disagreements = std::move(all);
}

nlohmann::json counts_json(const Counts& counts) {
    nlohmann::json j = nlohmann::json::object();
    for (Status s : results::kStatuses)
        if (counts[index_of(s)]) j[std::string(results::name(s))] = counts[index_of(s)];
    return j;
}

nlohmann::json backend_json(const BackendReport& b) {
    nlohmann::json runs = nlohmann::json::array(), failures = nlohmann::json::array();
    for (const RunOfFile& r : b.runs) {
        runs.push_back(results::to_json(r.run));
        runs.back()["file"] = r.file;
    }
    for (const results::CaseLine& f : b.failures)
        failures.push_back(results::to_json(f));
    nlohmann::json cells = nlohmann::json::object();
    for (const auto& [op, by_dtype] : b.cells)
        for (const auto& [dtype, counts] : by_dtype)
            cells[op][dtype] = counts_json(counts);
    nlohmann::json categories = nlohmann::json::object();
    for (const auto& [category, c] : b.categories)
        categories[std::string(comparison::name(category))] = {{"cases", c.cases},
                                                               {"elements", c.elements}};
    return {{"label", b.label},
            {"name", b.name},
            {"version", b.version},
            {"claims", b.claims ? nlohmann::json(*b.claims) : nlohmann::json(nullptr)},
            {"runs", runs},
            {"cases", sum(b.totals)},
            {"totals", counts_json(b.totals)},
            {"case_seconds", b.case_seconds},
            {"cases_per_second", b.case_seconds > 0
                                     ? nlohmann::json(double(sum(b.totals)) / b.case_seconds)
                                     : nlohmann::json(nullptr)},
            {"compilations", b.compilations},
            {"cells", cells},
            {"categories", categories},
            {"failures_total", b.failures_total},
            // The three kinds a reader tells apart: new deviations, those the baseline accepts,
            // and those the profile declares.
            {"new_total", b.failures_total - b.accepted_total},
            {"accepted_total", b.accepted_total},
            {"declared_total", b.declared_total},
            {"failures", failures}};
}

// One backend's counts over an op version's cells.
nlohmann::json scoreboard_cell(const BackendReport& b, const std::string& op) {
    Counts counts{};
    if (const auto it = b.cells.find(op); it != b.cells.end())
        for (const auto& [dtype, c] : it->second)
            for (std::size_t i = 0; i < counts.size(); ++i)
                counts[i] += c[i];
    const std::int64_t total = sum(counts);
    const std::int64_t run =
        total - counts[index_of(Status::unsupported)] - counts[index_of(Status::skipped)];
    // REFUSED_UNDEFINED: the defined elements were compared and matched.
    const std::int64_t passed =
        counts[index_of(Status::passed)] + counts[index_of(Status::refused_undefined)];
    // Conformance as declared: also the cases whose deviation the profile declares.
    const std::int64_t as_declared = passed + counts[index_of(Status::deviates_as_declared)];
    return {
        {"label", b.label},
        {"total", total},
        {"run", run},
        {"passed", passed},
        {"pass_rate", run ? nlohmann::json(double(passed) / double(run)) : nlohmann::json()},
        {"passed_as_declared", as_declared},
        {"pass_rate_as_declared",
         run ? nlohmann::json(double(as_declared) / double(run)) : nlohmann::json()},
        {"worst", total ? nlohmann::json(results::name(worst_status(counts))) : nlohmann::json()},
        {"counts", counts_json(counts)}};
}

std::map<std::string, std::string> labels_of(const std::vector<std::string>& files,
                                             std::vector<std::string>& keys) {
    std::map<std::string, std::string> plain, command;  // by key
    std::map<std::string, std::set<std::string>> keys_of_label;
    for (const std::string& file : files) {
        const results::RunLine run = first_run_line(file);
        const std::string key = backend_key(run, file);
        keys.push_back(key);
        plain[key] = plain_label(run, file);
        command[key] = short_command(run.backend_command);
        keys_of_label[plain[key]].insert(key);
    }
    std::map<std::string, std::string> label_of_key;
    std::set<std::string> taken;
    for (const auto& [key, label] : plain) {
        std::string unique = label;
        if (keys_of_label[label].size() > 1 && !command[key].empty())
            unique += " (" + command[key] + ")";
        for (int n = 2; taken.count(unique); ++n)
            unique = label + " #" + std::to_string(n);
        taken.insert(unique);
        label_of_key[key] = unique;
    }
    return label_of_key;
}

}  // namespace

results::Status worst_status(const Counts& counts) {
    for (Status s : results::kStatusesWorstFirst)
        if (counts[index_of(s)]) return s;
    return Status::passed;
}

std::int64_t sum(const Counts& counts) {
    std::int64_t total = 0;
    for (std::int64_t c : counts)
        total += c;
    return total;
}

ReportData collect_report(const std::vector<std::string>& files, const Limits& limits) {
    std::vector<std::string> keys;
    std::map<std::string, std::string> labels = labels_of(files, keys);
    const std::size_t backends = labels.size();
    Collector c{limits,
                backends > 1,
                std::max<std::size_t>(100, limits.failures / std::max<std::size_t>(1, backends)),
                {},
                std::move(labels),
                {},
                {},
                {},
                {}};
    c.data.generated = now_text();
    for (std::size_t i = 0; i < files.size(); ++i)
        c.read(files[i], keys[i]);
    c.share_failures();
    if (c.several_backends) c.list_disagreements();
    c.list_form_disagreements();
    return std::move(c.data);
}

nlohmann::json summary_json(const ReportData& data) {
    nlohmann::json ops = nlohmann::json::array(), dtypes = nlohmann::json::array(),
                   statuses = nlohmann::json::array(), backends = nlohmann::json::array(),
                   scoreboard = nlohmann::json::array(), deviations = nlohmann::json::array(),
                   severe = nlohmann::json::array();
    for (const core::OpVersion& op : core::op_versions()) {
        nlohmann::json allowed = nlohmann::json::array();
        for (core::ElementType t : op.element_types)
            allowed.push_back(core::name(t));
        ops.push_back({{"id", op.id()}, {"dtypes", allowed}});
        nlohmann::json row = {{"op", op.id()}, {"cells", nlohmann::json::array()}};
        for (const BackendReport& b : data.backends)
            row["cells"].push_back(scoreboard_cell(b, op.id()));
        scoreboard.push_back(std::move(row));
    }
    for (const core::ElementTypeInfo& t : core::kElementTypes)
        dtypes.push_back(t.name);
    for (Status s : results::kStatusesWorstFirst) {
        statuses.push_back(results::name(s));
        if (results::is_deviation(s)) deviations.push_back(results::name(s));
        if (results::is_severe(s)) severe.push_back(results::name(s));
    }
    for (const BackendReport& b : data.backends)
        backends.push_back(backend_json(b));
    return {{"format", "eltwise-report-summary/1"},
            {"generated", data.generated},
            {"validator", "eltwise-validate " ELTWISE_VERSION},
            {"statuses", statuses},
            {"deviations", deviations},
            {"severe", severe},
            {"op_versions", ops},
            {"dtypes", dtypes},
            {"backends", backends},
            {"scoreboard", scoreboard},
            {"disagreements_total", data.disagreements_total},
            {"disagreements", data.disagreements},
            {"form_disagreements_total", data.form_disagreements_total},
            {"form_disagreements", data.form_disagreements}};
}

}  // namespace reports
