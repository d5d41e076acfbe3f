#include "triage/draft_profile.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/graph_form.hpp"
#include "core/op_config.hpp"
#include "results/results_file.hpp"

namespace triage {
namespace {

comparison::ComparisonPolicy policy_of(const results::RunLine& run) {
    comparison::ComparisonPolicy p;
    p.nan = run.nan == "strict" ? comparison::NanPolicy::strict : comparison::NanPolicy::any;
    p.ulp = run.ulp;
    p.allow_ftz = run.allow_ftz;
    return p;
}

bool shape_only(const SavedCall& c) {
    return c.categories.size() == 1 && c.categories.count(comparison::Category::shape);
}

// The statuses a status entry is drafted for (besides FAILED with only a wrong shape).
bool drafts_status(results::Status s) {
    return s == results::Status::crashed || s == results::Status::hung ||
           s == results::Status::rejected_valid;
}

// The cases of one results file, as triage sorts them.
struct Triage {
    Draft draft;
    comparison::ComparisonPolicy policy;
    std::string results_dir;
    std::vector<std::unique_ptr<SavedCall>> calls;  // the explained FAILED cases' calls
    std::vector<std::unique_ptr<CallJudge>> judges;
    std::vector<ExplainedCase> explained;
    std::vector<StatusCase> statuses;

    void failed(std::unique_ptr<SavedCall> call) {
        Explanations found;
        auto judge = std::make_unique<CallJudge>(*call, policy);
        // A wrong type is never a model's (the judge declares no element of it); nor is a
        // rejection's reason, or an answer without output.
        if (!call->categories.count(comparison::Category::dtype) && call->data.valid &&
            call->actual)
            found = fewest_explanations(*judge);
        if (!found.fewest.empty()) {
            explained.push_back({call->id, key_of(*call), found.fewest});
            calls.push_back(std::move(call));
            judges.push_back(std::move(judge));
        } else if (shape_only(*call)) {
            statuses.push_back({call->id,
                                key_of(*call),
                                results::Status::failed,
                                {profiles::InputsWhen::shape_only}});
        } else {
            draft.unexplained.push_back({call->id, call->categories, found.note});
        }
    }

    void add(const results::CaseLine& line) {
        if (!results::is_deviation(line.verdict.status)) return;
        ++draft.deviations;
        const results::Status s = line.verdict.status;
        if (s != results::Status::failed && !drafts_status(s)) {
            draft.untriaged.push_back(
                {line.id, s,
                 "triage drafts value entries for FAILED and status entries for CRASHED, HUNG "
                 "and REJECTED_VALID"});
            return;
        }
        try {
            auto call = std::make_unique<SavedCall>(load_saved_call(line, results_dir));
            if (s == results::Status::failed)
                failed(std::move(call));
            else
                statuses.push_back({call->id, key_of(*call), s, holding_predicates(*call)});
        } catch (const core::Error& e) {
            draft.untriaged.push_back({line.id, s, e.what()});
        }
    }

    void on_run(const results::RunLine& run) {
        if (!draft.backend.empty()) return;  // shards of one run: the first line speaks
        policy = policy_of(run);
        draft.backend = run.label;
        if (draft.backend.empty() && run.backend)
            draft.backend = run.backend->name + " " + run.backend->version;
        if (run.platform) {
            draft.arch = run.platform->arch;
            draft.emulator = run.platform->emulator.substr(0, run.platform->emulator.find(' '));
        }
    }
};

std::string toml_string(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;  // ids have no control characters
        out += c;
    }
    return out + "\"";
}

std::string array(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + toml_string(items[i]);
    return out + "]";
}

// The op versions as globs where a glob names exactly some of them (at least two), else ids.
std::vector<std::string> op_globs(const std::vector<std::string>& ops) {
    std::vector<std::string> globs{"*"};
    for (const core::OpVersion& op : core::op_versions()) {
        const std::string domain = std::string(op.domain) + ".*";
        const std::string family = std::string(op.domain) + "." + std::string(op.name) + "-*";
        for (const std::string& g : {domain, family})
            if (std::find(globs.begin(), globs.end(), g) == globs.end()) globs.push_back(g);
    }
    std::set<std::string> left(ops.begin(), ops.end());
    std::vector<std::string> out;
    for (const std::string& g : globs) {
        std::vector<std::string> named;
        bool inside = true;
        for (const core::OpVersion& op : core::op_versions())
            if (::fnmatch(g.c_str(), op.id().c_str(), 0) == 0) {
                named.push_back(op.id());
                inside = inside && std::find(ops.begin(), ops.end(), op.id()) != ops.end();
            }
        const bool news = std::any_of(named.begin(), named.end(),
                                      [&](const auto& id) { return left.count(id) > 0; });
        if (!inside || named.size() < 2 || !news) continue;
        out.push_back(g);
        for (const std::string& id : named)
            left.erase(id);
    }
    for (const std::string& id : ops)
        if (left.count(id)) out.push_back(id);
    return out;
}

// Whether the rules are every rule the entry's op versions can have: then the key adds nothing.
bool every_rule(const ScopeBox& box) {
    for (const std::string& id : box.ops)
        for (core::BroadcastRule r : core::broadcast_rules(*core::find_op_version(id)))
            if (std::find(box.rules.begin(), box.rules.end(), r) == box.rules.end()) return false;
    return true;
}

std::string entry_name(const DraftEntry& e, std::set<std::string>& taken) {
    std::string name;
    for (core::ElementType t : e.scope.dtypes)
        name += std::string(core::name(t)) + "-";
    if (e.status) {
        name += std::string(results::name(*e.status));
        std::transform(name.begin(), name.end(), name.begin(), ::tolower);
        if (e.when != profiles::InputsWhen::any) name += "-" + std::string(profiles::name(e.when));
    } else {
        for (std::size_t i = 0; i < e.behaviours.size(); ++i)
            name += (i ? "+" : "") + e.behaviours[i];
    }
    std::string unique = name;
    for (int n = 2; !taken.insert(unique).second; ++n)
        unique = name + "-" + std::to_string(n);
    return unique;
}

void write_entry(std::ostream& out, const DraftEntry& e, const Draft& d,
                 std::set<std::string>& taken) {
    out << "\n[[declare]]\n";
    out << "# explains " << e.cases.size() << " case" << (e.cases.size() == 1 ? "" : "s")
        << ", e.g. " << e.cases.front() << "\n";
    out << "name = " << toml_string(entry_name(e, taken)) << "\n";
    out << "finding = \"TODO\"\n";
    if (e.status) {
        out << "status = " << toml_string(results::name(*e.status)) << "\n";
        if (e.when != profiles::InputsWhen::any)
            out << "when = " << toml_string(profiles::name(e.when)) << "\n";
    } else {
        out << "behaviours = " << array(e.behaviours) << "\n";
    }
    out << "ops = " << array(op_globs(e.scope.ops)) << "\n";
    std::vector<std::string> dtypes, rules;
    for (core::ElementType t : e.scope.dtypes)
        dtypes.emplace_back(core::name(t));
    for (core::BroadcastRule r : e.scope.rules)
        rules.emplace_back(core::name(r));
    out << "dtypes = " << array(dtypes) << "\n";
    if (!every_rule(e.scope)) out << "broadcast = " << array(rules) << "\n";
    if (e.scope.forms.size() < std::size(core::kGraphForms))
        out << "graph_forms = " << array(e.scope.forms) << "\n";
    if (!d.arch.empty()) out << "arch = " << toml_string(d.arch) << "\n";
    if (!d.emulator.empty()) out << "emulator = " << toml_string(d.emulator) << "\n";
}

std::string categories_text(const comparison::CategoryCounts& categories) {
    std::string out;
    for (const auto& [category, count] : categories)
        out += (out.empty() ? "" : " ") + std::string(comparison::name(category)) + ":" +
               std::to_string(count);
    return out.empty() ? "no category" : out;
}

// The lines (without their "# " or indentation) listing what triage leaves to a person.
std::vector<std::string> leftover_lines(const Draft& d) {
    std::vector<std::string> out;
    if (!d.unexplained.empty()) {
        out.push_back(
            "Not explained by any behaviour model (the findings to investigate), by "
            "category:");
        for (const auto& [category, found] : unexplained_by_category(d))
            out.push_back("  " + std::string(comparison::name(category)) + ": " +
                          std::to_string(found.first) + " case" + (found.first == 1 ? "" : "s") +
                          ", e.g. " + found.second);
        for (const UnexplainedCase& c : d.unexplained)
            out.push_back("  " + c.id + " (" + categories_text(c.categories) + ")" +
                          (c.note.empty() ? "" : ": " + c.note));
    }
    if (!d.untriaged.empty()) {
        out.push_back("Not triaged:");
        for (const UntriagedCase& c : d.untriaged)
            out.push_back("  " + c.id + " (" + std::string(results::name(c.status)) +
                          "): " + c.reason);
    }
    return out;
}

}  // namespace

Draft triage_results(const std::string& results_path) {
    Triage t;
    t.draft.source = results_path;
    t.results_dir = std::filesystem::path(results_path).parent_path().string();
    if (t.results_dir.empty()) t.results_dir = ".";
    results::read_results(
        results_path, [&](const results::RunLine& run) { t.on_run(run); },
        [&](const results::CaseLine& line) { t.add(line); });
    t.draft.entries = value_entries(
        t.explained, [&](std::size_t i, const Behaviours& b) { return t.judges[i]->explains(b); });
    for (DraftEntry& e : status_entries(t.statuses))
        t.draft.entries.push_back(std::move(e));
    return std::move(t.draft);
}

std::map<comparison::Category, std::pair<std::int64_t, std::string>, comparison::NameOrder>
unexplained_by_category(const Draft& draft) {
    std::map<comparison::Category, std::pair<std::int64_t, std::string>, comparison::NameOrder> out;
    for (const UnexplainedCase& c : draft.unexplained)
        for (const auto& [category, elements] : c.categories) {
            auto& [count, example] = out[category];
            if (count++ == 0) example = c.id;
        }
    return out;
}

std::string draft_toml(const Draft& d) {
    std::ostringstream out;
    out << "# Drafted by `eltwise-validate triage` from " << d.source;
    if (!d.backend.empty()) out << " (" << d.backend << ")";
    out << ".\n";
    if (d.entries.empty()) {
        out << "# No behaviour model or status explains a deviation of this run"
            << (d.deviations == 0 ? " (it has none)" : "") << ": nothing to declare.\n";
    } else {
        out << "# Each entry explains every wrong element of the cases it counts, as the judge "
               "computes its\n# model; its scope holds only the op versions, types, broadcast "
               "rules and graph forms\n# seen deviating. Check each against the library and "
               "replace finding = \"TODO\" with the\n# finding it rests on "
               "(docs/findings/...).\n";
    }
    std::set<std::string> taken;
    for (const DraftEntry& e : d.entries)
        write_entry(out, e, d, taken);
    const std::vector<std::string> rest = leftover_lines(d);
    if (!rest.empty()) out << "\n";
    for (const std::string& line : rest)
        out << "# " << line << "\n";
    return out.str();
}

std::string triage_summary(const Draft& d) {
    // Distinct cases: one case may be explained by entries of two scopes.
    std::set<std::string> ids;
    for (const DraftEntry& e : d.entries)
        ids.insert(e.cases.begin(), e.cases.end());
    const auto explained = static_cast<std::int64_t>(ids.size());
    std::ostringstream out;
    out << "triage: " << d.deviations << " deviating case" << (d.deviations == 1 ? "" : "s") << ": "
        << explained << " explained by " << d.entries.size() << " drafted entr"
        << (d.entries.size() == 1 ? "y" : "ies") << ", " << d.unexplained.size() << " unexplained, "
        << d.untriaged.size() << " not triaged\n";
    std::set<std::string> taken;
    for (const DraftEntry& e : d.entries) {
        std::ostringstream entry;
        write_entry(entry, e, d, taken);
        out << "  " << taken.size() << ". " << e.cases.size() << " case"
            << (e.cases.size() == 1 ? "" : "s") << ": ";
        std::string text = entry.str(), flat;
        std::istringstream lines(text);
        for (std::string l; std::getline(lines, l);)
            if (!l.empty() && l[0] != '#' && l[0] != '[' && l.rfind("finding", 0) != 0)
                flat += (flat.empty() ? "" : ", ") + l;
        out << flat << "\n";
    }
    for (const std::string& line : leftover_lines(d))
        out << line << "\n";
    return out.str();
}

}  // namespace triage
