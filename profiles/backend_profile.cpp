#include "profiles/backend_profile.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>

#include <toml++/toml.h>

#include "core/error.hpp"
#include "core/graph_form.hpp"

namespace profiles {
namespace {

constexpr std::array<std::pair<std::string_view, InputsWhen>, 7> kWhen{{
    {"any", InputsWhen::any},
    {"traps_in_i32", InputsWhen::traps_in_i32},
    {"int32_min_by_minus_one", InputsWhen::int32_min_by_minus_one},
    {"shape_only", InputsWhen::shape_only},
    {"empty_output", InputsWhen::empty_output},
    {"int_min_by_minus_one", InputsWhen::int_min_by_minus_one},
    {"zero_divisor", InputsWhen::zero_divisor},
}};
constexpr std::array<std::string_view, 17> kKeys = {
    "name",     "finding",   "behaviours",  "status",    "when",      "ops",
    "dtypes",   "broadcast", "graph_forms", "cpu_has",   "cpu_lacks", "arch",
    "emulator", "gpu",       "gpu_has",     "gpu_lacks", "note"};

// Every error names the file and the line of the entry (or key) it is about.
[[noreturn]] void fail(const std::string& source, const toml::node& at, const std::string& what) {
    throw core::Error(core::ErrorKind::input,
                      source + ":" + std::to_string(at.source().begin.line) + ": " + what);
}

std::string text_of(const std::string& source, const toml::node& n, std::string_view key) {
    const auto v = n.value<std::string>();
    if (!n.is_string() || !v) fail(source, n, "'" + std::string(key) + "' must be a string");
    return *v;
}

std::vector<std::string> strings_of(const std::string& source, const toml::node& n,
                                    std::string_view key) {
    const toml::array* a = n.as_array();
    if (!a) fail(source, n, "'" + std::string(key) + "' must be an array of strings");
    std::vector<std::string> out;
    for (const toml::node& item : *a)
        out.push_back(text_of(source, item, key));
    if (out.empty()) fail(source, n, "'" + std::string(key) + "' is empty (leave it out for any)");
    return out;
}

bool names_an_op(const std::string& pattern) {
    return std::any_of(core::op_versions().begin(), core::op_versions().end(),
                       [&](const core::OpVersion& op) {
                           return ::fnmatch(pattern.c_str(), op.id().c_str(), 0) == 0;
                       });
}

template <class Table>
auto lookup(const Table& table, std::string_view text) {
    for (const auto& [name, value] : table)
        if (name == text) return std::optional(value);
    return std::optional<decltype(table[0].second)>();
}

std::vector<std::string> ops_of(const std::string& source, const toml::node& n) {
    std::vector<std::string> ops = strings_of(source, n, "ops");
    for (const std::string& p : ops)
        if (!names_an_op(p)) fail(source, n, "'" + p + "' names no op version");
    return ops;
}

// `profile_ops`: the profile's top-level `ops`, the scope of entries that name none.
void read_scope(Entry& e, const std::string& source, const toml::table& t,
                const std::vector<std::string>& profile_ops) {
    if (const toml::node* n = t.get("ops"))
        e.scope.ops = ops_of(source, *n);
    else if (!profile_ops.empty())
        e.scope.ops = profile_ops;
    else
        fail(source, t,
             "entry '" + e.name +
                 "' has no 'ops' (and the profile none at the top): a scope names its op versions");
    if (const toml::node* n = t.get("dtypes"))
        for (const std::string& d : strings_of(source, *n, "dtypes")) {
            const auto type = core::element_type_named(d);
            if (!type) fail(source, *n, "unknown element type '" + d + "'");
            e.scope.dtypes.push_back(*type);
        }
    if (const toml::node* n = t.get("broadcast"))
        for (const std::string& r : strings_of(source, *n, "broadcast")) {
            const auto rule = core::broadcast_rule_named(r);
            if (!rule)
                fail(source, *n,
                     "unknown broadcast rule '" + r + "' (" + core::broadcast_rule_names() + ")");
            e.scope.broadcast.push_back(*rule);
        }
    if (const toml::node* n = t.get("graph_forms"))
        for (const std::string& f : strings_of(source, *n, "graph_forms")) {
            if (!core::is_graph_form(f)) fail(source, *n, "unknown graph form '" + f + "'");
            e.scope.graph_forms.push_back(f);
        }
}

// The feature names of a condition key; `refusal(key, name)` says what is wrong with one, or "".
template <class Refusal>
void read_features(std::vector<std::string>& out, const std::string& source, const toml::table& t,
                   const std::string& key, Refusal refusal) {
    const toml::node* n = t.get(key);
    if (!n) return;
    out = strings_of(source, *n, key.c_str());
    for (const std::string& f : out)
        if (const std::string why = refusal(key, f); !why.empty()) fail(source, *n, why);
}

// GPU feature names are the API's own (WebGPU's, OpenCL's extensions), an open set: only an
// empty name is refused.
void read_gpu_condition(Entry& e, const std::string& source, const toml::table& t) {
    if (const toml::node* n = t.get("gpu")) {
        e.condition.gpu = text_of(source, *n, "gpu");
        if (e.condition.gpu.empty()) fail(source, *n, "gpu names no GPU");
    }
    const auto refuse_empty = [](const std::string& key, const std::string& f) {
        return f.empty() ? key + " holds an empty feature name" : std::string();
    };
    read_features(e.condition.gpu_has, source, t, "gpu_has", refuse_empty);
    read_features(e.condition.gpu_lacks, source, t, "gpu_lacks", refuse_empty);
}

void read_condition(Entry& e, const std::string& source, const toml::table& t) {
    const auto refuse_unknown = [](const std::string&, const std::string& f) {
        return platform::is_known_feature(f) ? std::string() : "unknown CPU feature '" + f + "'";
    };
    read_features(e.condition.cpu_has, source, t, "cpu_has", refuse_unknown);
    read_features(e.condition.cpu_lacks, source, t, "cpu_lacks", refuse_unknown);
    if (const toml::node* n = t.get("arch")) {
        e.condition.arch = text_of(source, *n, "arch");
        if (e.condition.arch != "x86_64" && e.condition.arch != "aarch64")
            fail(source, *n, "unknown architecture '" + e.condition.arch + "' (x86_64, aarch64)");
    }
    if (const toml::node* n = t.get("emulator")) {
        e.condition.emulator = text_of(source, *n, "emulator");
        if (e.condition.emulator != "qemu-x86_64" && e.condition.emulator != "qemu-aarch64")
            fail(source, *n,
                 "unknown emulator '" + e.condition.emulator + "' (qemu-x86_64, qemu-aarch64)");
    }
    read_gpu_condition(e, source, t);
}

void read_outcome(Entry& e, const std::string& source, const toml::table& t) {
    const toml::node* b = t.get("behaviours");
    const toml::node* s = t.get("status");
    if ((b == nullptr) == (s == nullptr))
        fail(source, t, "entry '" + e.name + "' needs either 'behaviours' or 'status'");
    if (b) {
        e.behaviours = strings_of(source, *b, "behaviours");
        for (const std::string& name : e.behaviours)
            try {
                behaviours::add_behaviour(e.model, name);
            } catch (const core::Error& err) {
                fail(source, *b, err.what());
            }
    } else {
        const std::string text = text_of(source, *s, "status");
        e.status = results::parse_status(text);
        if (!e.status || !results::is_deviation(*e.status))
            fail(source, *s, "'" + text + "' is not a deviation status");
        const toml::node* w = t.get("when");
        if (*e.status == results::Status::failed &&
            !(w && w->value<std::string>() == std::string("shape_only")))
            fail(source, *s,
                 "wrong values are declared by 'behaviours'; status FAILED only with "
                 "when = \"shape_only\"");
    }
    if (const toml::node* w = t.get("when")) {
        if (!s) fail(source, *w, "'when' belongs to a status entry");
        const auto when = lookup(kWhen, text_of(source, *w, "when"));
        if (!when)
            fail(source, *w,
                 "unknown 'when' (any, int_min_by_minus_one, zero_divisor, empty_output, "
                 "traps_in_i32, int32_min_by_minus_one, shape_only)");
        e.when = *when;
    }
}

// An entry's keys stand together under its header: no blank or comment line between two of
// them. TOML gives a key below such a line to the entry above, while a reader takes the line as
// the start of the next entry, and the comment there as that entry's description (issue 44: seven
// `arch` lines stood under the comment of the entries below them, and bound to the ones above).
// Comments go above the [[declare]] header, or between the items of a multi-line array.
void check_keys_together(const std::string& source, const std::vector<std::string_view>& lines,
                         const toml::table& t, const std::string& name) {
    std::vector<std::pair<std::size_t, std::string_view>> keys;  // line, key
    for (const auto& [key, value] : t)
        keys.emplace_back(value.source().begin.line,
                          key.str());  // a value starts on its key's line
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 1; i < keys.size(); ++i) {
        const std::size_t line = keys[i].first;
        if (line < 2 || line - 2 >= lines.size()) continue;
        std::string_view above = lines[line - 2];
        above.remove_prefix(std::min(above.find_first_not_of(" \t\r"), above.size()));
        if (!above.empty() && !above.starts_with('#')) continue;
        throw core::Error(
            core::ErrorKind::input,
            source + ":" + std::to_string(line) + ": '" + std::string(keys[i].second) +
                "' is cut off from the keys of entry '" + name + "' (line " +
                std::to_string(t.source().begin.line) +
                ") by a comment or blank line: TOML gives it to that entry, but it reads as the "
                "next one's. Keep an entry's keys together under its [[declare]] header");
    }
}

Entry read_entry(const std::string& source, const toml::table& t,
                 const std::vector<std::string>& profile_ops) {
    for (const auto& [key, value] : t)
        if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
            fail(source, value, "unknown key '" + std::string(key.str()) + "'");
    Entry e;
    e.source = source;
    e.line = static_cast<int>(t.source().begin.line);
    const toml::node* name = t.get("name");
    if (!name) fail(source, t, "an entry without 'name'");
    e.name = text_of(source, *name, "name");
    const toml::node* finding = t.get("finding");
    if (!finding) fail(source, t, "entry '" + e.name + "' has no 'finding' it rests on");
    e.finding = text_of(source, *finding, "finding");
    read_outcome(e, source, t);
    read_scope(e, source, t, profile_ops);
    read_condition(e, source, t);
    return e;
}

bool same_declaration(const Entry& x, const Entry& y) {
    return x.model == y.model && x.status == y.status && x.when == y.when &&
           x.scope.ops == y.scope.ops && x.scope.dtypes == y.scope.dtypes &&
           x.scope.broadcast == y.scope.broadcast && x.scope.graph_forms == y.scope.graph_forms &&
           x.condition.cpu_has == y.condition.cpu_has &&
           x.condition.cpu_lacks == y.condition.cpu_lacks && x.condition.arch == y.condition.arch &&
           x.condition.emulator == y.condition.emulator && x.condition.gpu == y.condition.gpu &&
           x.condition.gpu_has == y.condition.gpu_has &&
           x.condition.gpu_lacks == y.condition.gpu_lacks;
}

// The entry of `entries` that e repeats (same name, or the same declaration), or null.
const Entry* repeated(const std::vector<Entry>& entries, const Entry& e) {
    for (const Entry& other : entries)
        if (other.name == e.name || same_declaration(other, e)) return &other;
    return nullptr;
}

template <class T>
bool any_or_contains(const std::vector<T>& list, const T& v) {
    return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
}

}  // namespace

bool Condition::holds(const platform::Platform& p) const {
    if (!arch.empty() && arch != p.arch) return false;
    if (!emulator.empty() && !p.emulator.starts_with(emulator + " ")) return false;
    const bool names_gpu = !gpu.empty() || !gpu_has.empty() || !gpu_lacks.empty();
    if (names_gpu && !p.gpu.present()) return false;
    if (!gpu.empty() && !p.gpu.named(gpu)) return false;
    if (!std::all_of(gpu_has.begin(), gpu_has.end(), [&](const auto& f) { return p.gpu.has(f); }) ||
        std::any_of(gpu_lacks.begin(), gpu_lacks.end(),
                    [&](const auto& f) { return p.gpu.has(f); }))
        return false;
    return std::all_of(cpu_has.begin(), cpu_has.end(), [&](const auto& f) { return p.has(f); }) &&
           std::none_of(cpu_lacks.begin(), cpu_lacks.end(),
                        [&](const auto& f) { return p.has(f); });
}

Profile parse_profile(std::string_view text, const std::string& source) {
    toml::table root;
    try {
        root = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        throw core::Error(core::ErrorKind::input, source + ":" +
                                                      std::to_string(e.source().begin.line) + ": " +
                                                      std::string(e.description()));
    }
    Profile p{source, {}, {}};
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    std::vector<std::string> profile_ops;
    if (const toml::node* n = root.get("ops")) profile_ops = ops_of(source, *n);
    if (const toml::node* n = root.get("include")) p.includes = strings_of(source, *n, "include");
    for (const auto& [key, value] : root) {
        if (key.str() == "ops" || key.str() == "include") continue;
        if (key.str() != "declare")
            fail(source, value,
                 "unknown key '" + std::string(key.str()) +
                     "' (only 'ops', 'include' and [[declare]] entries)");
        const toml::array* entries = value.as_array();
        if (!entries) fail(source, value, "'declare' must be written [[declare]]");
        for (const toml::node& n : *entries) {
            const toml::table* t = n.as_table();
            if (!t) fail(source, n, "'declare' must be written [[declare]]");
            Entry e = read_entry(source, *t, profile_ops);
            check_keys_together(source, lines, *t, e.name);
            if (const Entry* other = repeated(p.entries, e))
                fail(source, *t,
                     "entry '" + e.name + "' repeats entry '" + other->name + "' (line " +
                         std::to_string(other->line) + ")");
            p.entries.push_back(std::move(e));
        }
    }
    return p;
}

namespace {

// `chain`: the profiles being read, outermost first, so that a circle of includes is an error.
Profile read_profile_in(const std::filesystem::path& path,
                        std::vector<std::filesystem::path>& chain) {
    const std::filesystem::path key = std::filesystem::weakly_canonical(path);
    if (std::find(chain.begin(), chain.end(), key) != chain.end())
        throw core::Error(core::ErrorKind::input, "profile " + path.string() + " includes itself");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw core::Error(core::ErrorKind::input, "cannot read profile " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    Profile p = parse_profile(text.str(), path.string());
    chain.push_back(key);
    for (const std::string& include : p.includes) {
        const Profile shared = read_profile_in(path.parent_path() / include, chain);
        for (const Entry& e : shared.entries) {
            if (const Entry* other = repeated(p.entries, e))
                throw core::Error(core::ErrorKind::input,
                                  shared.path + ":" + std::to_string(e.line) + ": entry '" +
                                      e.name + "' repeats entry '" + other->name + "' of " +
                                      p.path + " (line " + std::to_string(other->line) + ")");
            p.entries.push_back(e);
        }
    }
    chain.pop_back();
    return p;
}

}  // namespace

Profile read_profile(const std::string& path) {
    std::vector<std::filesystem::path> chain;
    return read_profile_in(path, chain);
}

bool in_scope(const Entry& e, const core::OpVersion& op, core::ElementType dtype,
              core::BroadcastRule rule, std::string_view graph_form) {
    const std::string id = op.id();
    const bool op_matches = std::any_of(e.scope.ops.begin(), e.scope.ops.end(), [&](const auto& p) {
        return ::fnmatch(p.c_str(), id.c_str(), 0) == 0;
    });
    return op_matches && any_or_contains(e.scope.dtypes, dtype) &&
           any_or_contains(e.scope.broadcast, rule) &&
           any_or_contains(e.scope.graph_forms, std::string(graph_form));
}

std::vector<const Entry*> active_entries(const Profile& profile, const platform::Platform& p,
                                         const core::PreparedCall& call,
                                         std::string_view graph_form) {
    const bool multiply = call.op->arithmetic == core::Arithmetic::multiply;
    std::vector<const Entry*> out;
    for (const Entry& e : profile.entries)
        if (e.condition.holds(p) &&
            in_scope(e, *call.op, call.type, call.config.broadcast.rule, graph_form) &&
            (e.status || behaviours::affects(e.model, call.type, multiply)))
            out.push_back(&e);
    return out;
}

bool inputs_match(InputsWhen when, const core::PreparedCall& call, const core::Tensor& a,
                  const core::Tensor& b) {
    if (when == InputsWhen::any) return true;
    if (when == InputsWhen::empty_output) return core::element_count(call.plan.output) == 0;
    if (when == InputsWhen::shape_only) return true;  // judged on the case's categories
    bool found = false;
    core::dispatch(call.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const auto x = a.values<T>(), y = b.values<T>();
            // Any zero in B, even where the output is empty (a library may refuse it unread).
            if (when == InputsWhen::zero_divisor) {
                found = std::find(y.begin(), y.end(), T(0)) != y.end();
                return;
            }
            core::for_each_offset(call.plan, [&](std::int64_t, std::int64_t ia, std::int64_t ib) {
                const T xa = x[static_cast<std::size_t>(ia)], yb = y[static_cast<std::size_t>(ib)];
                if (when == InputsWhen::traps_in_i32 ||
                    when == InputsWhen::int32_min_by_minus_one) {
                    if constexpr (sizeof(T) >= 4) {
                        const auto lx = static_cast<std::uint32_t>(xa);
                        const auto ly = static_cast<std::uint32_t>(yb);
                        const bool by_zero = when == InputsWhen::traps_in_i32 && ly == 0;
                        found = found ||
                                (yb != 0 && (by_zero || (lx == 0x80000000u && ly == 0xffffffffu)));
                    }
                } else if constexpr (std::is_signed_v<T>) {
                    found = found || (xa == std::numeric_limits<T>::min() && yb == T(-1));
                }
            });
        }
    });
    return found;
}

std::string_view name(InputsWhen when) {
    for (const auto& [text, w] : kWhen)
        if (w == when) return text;
    return "unknown";
}

}  // namespace profiles
