#include "triage/saved_call.hpp"

#include <filesystem>

#include "core/error.hpp"
#include "core/op_config.hpp"
#include "io/npy_file.hpp"
#include "results/repro_file_names.hpp"

namespace triage {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what) {
    throw core::Error(core::ErrorKind::input, what);
}

// The line's file called `name` (in the case's own `original/` folder when `original`), where
// it is or below the moved results directory; "" if none.
std::string find_file(const results::CaseLine& line, std::string_view name,
                      const std::string& results_dir, bool original = false) {
    for (const std::string& f : line.files) {
        fs::path p(f);
        if (p.filename().string() != name ||
            (p.parent_path().filename() == results::kReproOriginal) != original)
            continue;
        if (fs::exists(p)) return f;
        if (original) p = p.parent_path();
        fs::path moved = fs::path(results_dir) / p.parent_path().parent_path().filename() /
                         p.parent_path().filename();
        if (original) moved /= results::kReproOriginal;
        moved /= fs::path(f).filename();
        if (fs::exists(moved)) return moved.string();
        fail("its repro file " + f + " is gone");
    }
    return "";
}

// bf16 files hold '<u2' bits: read with the line's type; an answer of another type as it is.
core::Tensor read_as(const std::string& path, core::ElementType type, bool exact) {
    try {
        return io::read_npy(path, type);
    } catch (const core::Error&) {
        if (exact) throw;
        return io::read_npy(path, std::nullopt);
    }
}

}  // namespace

CallKey key_of(const SavedCall& c) {
    core::BroadcastRule rule = core::kDefaultBroadcastRule;
    try {
        rule = core::resolve_attributes(*c.data.op, c.data.attributes).broadcast.rule;
    } catch (const core::Error&) {
        rule = core::broadcast_rules(*c.data.op).front();
    }
    return {c.data.op->id(), c.data.a.type, rule, c.data.graph_form};
}

SavedCall load_saved_call(const results::CaseLine& line, const std::string& results_dir) {
    const core::OpVersion* op = core::find_op_version(line.op);
    if (!op) fail("no op version ('" + line.op + "')");
    const auto type = core::element_type_named(line.dtype);
    const auto type_b = core::element_type_named(line.dtype_b.empty() ? line.dtype : line.dtype_b);
    if (!type || !type_b) fail("an unknown element type ('" + line.dtype + "')");
    // The case itself where its files were kept: a minimal case of one pair is explained by
    // more models than the case, and a narrowed one has other attributes (broadcast rule).
    const bool original = !find_file(line, results::kReproA, results_dir, true).empty();
    const bool minimal = line.minimal && !original;
    const std::string a = find_file(line, results::kReproA, results_dir, original);
    const std::string b = find_file(line, results::kReproB, results_dir, original);
    if (a.empty() || b.empty())
        fail(line.files.empty() ? "no repro files (" + line.verdict.message + ")"
                                : "no a.npy and b.npy among its files");
    SavedCall c;
    c.id = line.id;
    c.shown_id = minimal ? line.minimal->id : line.id;
    c.data.id = c.shown_id;
    c.data.op = op;
    c.data.attributes = minimal ? line.minimal->attributes : line.attributes;
    c.data.a = read_as(a, *type, true);
    c.data.b = read_as(b, *type_b, true);
    c.data.valid = line.valid;
    c.data.graph_form = line.graph_form;
    if (const std::string actual = find_file(line, results::kReproActual, results_dir, original);
        !actual.empty())
        c.actual = read_as(actual, *type, false);
    c.status = line.verdict.status;
    c.categories = line.verdict.categories;
    return c;
}

}  // namespace triage
