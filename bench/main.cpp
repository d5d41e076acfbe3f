// eltwise-bench: throughput of optimized::run_into (into a preallocated output, as the peers)
// against the reference, Eigen, oneDNN and a copy ceiling, one JSON line per (row,
// implementation); optimized once per kernel set (ISA) asked for with --isa. See "Throughput
// benchmark" in the project README.
#include <malloc.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/bench_row.hpp"
#include "bench/copy_ceiling.hpp"
#include "bench/input_fill.hpp"
#include "bench/median_timer.hpp"
#include "bench/peer.hpp"
#include "comparison/output_comparison.hpp"
#include "core/element_text.hpp"
#include "core/op_config.hpp"
#include "reference/run.hpp"

#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
#include "optimized/cpu_dispatch.hpp"
#include "optimized/run.hpp"
#endif

namespace {

using nlohmann::json;

struct Options {
    bool smoke = false;
    int reps = 7;
    int reference_reps = 1;
    int warmup = 1;
    bool fresh_pages = false;
    std::string rows_file = ELTWISE_BENCH_ROWS_FILE;
    std::vector<std::string> only;
    std::string isa_list;
#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
    std::vector<optimized::Isa> isas;  // the active ISA first: its line keeps impl "optimized"
#endif
};

struct RowRun {
    const bench::Row& row;
    std::int64_t elements;
    std::int64_t bytes;  // |A| + |B| + |C|
};

void emit(const json& line) {
    std::cout << line.dump() << '\n' << std::flush;
}

json base(const RowRun& r, std::string_view impl) {
    return {{"row", r.row.id}, {"impl", impl}};
}

void emit_na(const RowRun& r, std::string_view impl, const std::string& reason,
             json extra = json::object()) {
    json j = base(r, impl);
    j["status"] = "n/a";
    j["reason"] = reason;
    j.update(extra);
    emit(j);
}

void emit_timing(const RowRun& r, std::string_view impl, bench::Timing t, std::int64_t bytes,
                 int threads, json extra = json::object()) {
    json j = base(r, impl);
    j["status"] = "ok";
    j["median_s"] = t.median_s;
    j["reps"] = t.reps;
    j["bytes"] = bytes;
    j["elements"] = r.elements;
    j["gb_per_s"] = static_cast<double>(bytes) / t.median_s * 1e-9;
    j["gelem_per_s"] = static_cast<double>(r.elements) / t.median_s * 1e-9;
    j["threads"] = threads;
    j.update(extra);
    emit(j);
}

// Elements that differ from the reference's by the judge's rule (comparison::same_element: the
// same bits, or both NaN), undefined outputs excepted.
std::int64_t mismatches(const core::OpOutput& expected, const core::Tensor& actual) {
    const core::Tensor& want = expected.value;
    std::set<std::int64_t> undefined(expected.undefined.begin(), expected.undefined.end());
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < want.size(); ++i)
        if (!comparison::same_element(want.type, core::element_bits(want, i),
                                      core::element_bits(actual, i)) &&
            !undefined.count(i))
            ++count;
    return count;
}

// Returns false when the optimized output disagrees with the reference.
bool run_row(const bench::Row& row, const Options& o) {
    const core::Shape& sa = o.smoke ? row.smoke_a : row.a;
    const core::Shape& sb = o.smoke ? row.smoke_b : row.b;
    const core::Tensor a = bench::make_input(row, bench::Operand::a, sa);
    const core::Tensor b = bench::make_input(row, bench::Operand::b, sb);
    const core::OpVersion& op = row.op();
    const core::AttributeMap attributes = row.attributes();
    const core::Shape out_shape = core::prepare_call(op, attributes, a, b).plan.output;
    const std::int64_t elements = core::element_count(out_shape);
    const auto out_bytes = static_cast<std::int64_t>(core::byte_size(row.type)) * elements;
    const RowRun r{row, elements,
                   static_cast<std::int64_t>(a.bytes.size() + b.bytes.size()) + out_bytes};
    const int threads = omp_get_max_threads();
    const int warmup = o.smoke ? 0 : o.warmup;
    const int reps = o.smoke ? 1 : o.reps;
    bool ok = true;

    {
        bench::CopyCeiling copy(static_cast<std::size_t>(r.bytes));
        const auto t = bench::time_median([&] { copy.run(); }, warmup, reps);
        emit_timing(r, "copy", t, static_cast<std::int64_t>(copy.bytes_moved()), threads);
    }

    // The reference: single-threaded by design, full size, reference_reps timed runs, no warmup.
    std::optional<core::OpOutput> expected;
    const auto t_ref = bench::time_median([&] { expected = reference::run(op, attributes, a, b); },
                                          0, o.smoke ? 1 : o.reference_reps);
    emit_timing(r, "reference", t_ref, r.bytes, 1,
                {{"note", "single-threaded; " + std::to_string(t_ref.reps) +
                              " timed run(s) at the row's size, no warmup"}});

#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
    for (const optimized::Isa isa : o.isas) {
        const std::string isa_name(optimized::name(isa));
        const std::string impl = isa == o.isas.front() ? "optimized" : "optimized." + isa_name;
        if (!optimized::set_isa_override(isa)) {
            emit_na(r, impl, "this CPU does not run " + isa_name, {{"isa", isa_name}});
            continue;
        }
        // Like the peers, optimized writes into an output allocated once, outside the timing:
        // run_into reuses a tensor of the right type, shape and size (no allocation, no fill).
        // The reference column still times reference::run, allocation included.
        core::OpOutput reused;
        reused.value = core::Tensor::zeros(row.type, out_shape);
        const std::byte* const storage = reused.value.bytes.data();
        const auto t = bench::time_median(
            [&] { optimized::run_into(op, attributes, a, b, reused, threads); }, warmup, reps);
        const core::OpOutput* got = &reused;
        if (reused.value.bytes.data() != storage)
            throw std::logic_error("optimized::run_into replaced the preallocated output");
        const std::int64_t bad = got->value.shape == expected->value.shape &&
                                         got->value.bytes.size() == expected->value.bytes.size()
                                     ? mismatches(*expected, got->value)
                                     : elements;
        const bool same_undefined = got->undefined == expected->undefined;
        emit_timing(r, impl, t, r.bytes, threads,
                    {{"isa", isa_name},
                     {"mismatches", bad},
                     {"note",
                      "optimized::run_into with a preallocated, reused output (as the "
                      "peers); allocation and zero fill are not timed"}});
        if (bad != 0 || !same_undefined) {
            std::cerr << "eltwise-bench: optimized::run (" << isa_name
                      << ") disagrees with reference::run on row " << row.id << " (" << bad
                      << " elements differ" << (same_undefined ? "" : ", undefined lists differ")
                      << ")\n";
            ok = false;
        }
    }
    optimized::set_isa_override(std::nullopt);
#else
    emit_na(r, "optimized", "built without optimized/ (CMake target eltwise_optimized missing)");
#endif

    {  // What optimized::run (not timed above) adds for its output tensor: the allocation.
        const auto t = bench::time_median(
            [&] {
                core::Tensor t = core::Tensor::uninitialized(row.type, out_shape);
                asm volatile("" : : "r"(t.bytes.data()) : "memory");
            },
            warmup, reps);
        emit_timing(r, "output_alloc", t, out_bytes, 1,
                    {{"note",
                      "Tensor::uninitialized of the output alone (inside optimized::run, "
                      "not inside the timed optimized::run_into; reference::run zero-fills)"}});
    }

    core::Tensor out = core::Tensor::zeros(row.type, out_shape);
    const bench::PeerCall call{row, a, b, bench::layout_dims(row.layout, sa, sb), out.bytes.data()};
    for (const auto& [name, prepare] :
         {std::pair{"eigen", &bench::prepare_eigen}, std::pair{"onednn", &bench::prepare_onednn}}) {
        std::fill(out.bytes.begin(), out.bytes.end(), std::byte{0});
        const bench::PreparedPeer peer = prepare(call);
        if (!peer.run) {
            emit_na(r, name, peer.reason);
            continue;
        }
        const auto t = bench::time_median(peer.run, warmup, reps);
        json extra = {{"mismatches", mismatches(*expected, out)},
                      {"same_semantics", peer.same_semantics}};
        if (!peer.note.empty()) extra["note"] = peer.note;
        emit_timing(r, name, t, r.bytes, threads, extra);
    }
    return ok;
}

#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
std::string isa_names() {
    std::string names;
    for (const optimized::Isa isa : optimized::kIsas)
        names += (names.empty() ? "" : ", ") + std::string(optimized::name(isa));
    return names;
}

// --isa: comma-separated kernel set names or "all" (every one this CPU runs), after the active
// ISA, which is always timed. Unsupported ones stay in the list and report n/a.
std::vector<optimized::Isa> parse_isa_list(const std::string& list) {
    std::vector<optimized::Isa> isas{optimized::active_isa()};
    const auto add = [&](optimized::Isa isa) {
        if (std::find(isas.begin(), isas.end(), isa) == isas.end()) isas.push_back(isa);
    };
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        if (item == "all") {
            for (const optimized::Isa isa : optimized::kIsas)
                if (optimized::cpu_supports(isa)) add(isa);
        } else if (const auto isa = optimized::parse_isa(item)) {
            add(*isa);
        } else {
            throw std::runtime_error("--isa " + list + ": unknown kernel set '" + item +
                                     "' (one of " + isa_names() + ", or all)");
        }
    }
    return isas;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"eltwise-bench: element-wise Mul/Div throughput against peers and a copy ceiling"};
    Options o;
    app.add_flag("--smoke", o.smoke, "every row at its tiny smoke shape, 1 repetition");
    app.add_option("--reps", o.reps, "timed repetitions per implementation (median reported)")
        ->check(CLI::PositiveNumber);
    app.add_option("--reference-reps", o.reference_reps, "timed runs of the (slow) reference")
        ->check(CLI::PositiveNumber);
    app.add_option("--warmup", o.warmup, "untimed runs before timing")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--rows", o.rows_file, "the rows file")->check(CLI::ExistingFile);
    app.add_option("--only", o.only, "run only these row ids");
    app.add_option("--isa", o.isa_list,
                   "time optimized with each of these kernel sets (comma-separated: " +
#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
                       isa_names() +
#endif
                       ", or all = every one this CPU runs); default: the active one");
    app.add_flag("--fresh-pages", o.fresh_pages,
                 "keep glibc's mmap for big blocks: every output allocation faults in new pages");
    CLI11_PARSE(app, argc, argv);

    if (!o.fresh_pages) {
        // Big blocks come from the heap and are reused, as in a long-running process with a
        // caching allocator, instead of being mmapped (and page-faulted) anew on every call.
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_TOP_PAD, 64 << 20);
    }

    try {
#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
        o.isas = parse_isa_list(o.isa_list);
#endif
        const std::vector<bench::Row> rows = bench::load_rows(o.rows_file);
        json meta = {{"mode", o.smoke ? "smoke" : "full"},
                     {"threads", omp_get_max_threads()},
                     {"reps", o.smoke ? 1 : o.reps},
                     {"warmup", o.smoke ? 0 : o.warmup},
                     {"reference_reps", o.smoke ? 1 : o.reference_reps},
                     {"allocator", o.fresh_pages ? "glibc default (mmap per big block)"
                                                 : "glibc heap, no mmap, no trim"},
                     {"eigen", bench::eigen_version()},
                     {"onednn", bench::onednn_version()},
#ifdef ELTWISE_BENCH_HAVE_OPTIMIZED
                     {"optimized", true},
                     {"isa", optimized::name(o.isas.front())}};
#else
                     {"optimized", false}};
#endif
        if (const char* env = std::getenv("OMP_NUM_THREADS")) meta["omp_num_threads"] = env;
        emit({{"meta", meta}});
        bool ok = true;
        std::set<std::string> wanted(o.only.begin(), o.only.end());
        for (const auto& id : wanted)
            if (std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return r.id == id; }))
                throw std::runtime_error("--only " + id + ": no such row in " + o.rows_file);
        for (const auto& row : rows)
            if (wanted.empty() || wanted.count(row.id)) ok = run_row(row, o) && ok;
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "eltwise-bench: " << e.what() << '\n';
        return 2;
    }
}
