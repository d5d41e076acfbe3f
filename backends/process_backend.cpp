#include "backends/process_backend.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <system_error>

#include "backends/child_process.hpp"
#include "backends/shared_region.hpp"
#include "backends/shared_tensors.hpp"
#include "core/op_config.hpp"
#include "io/npy_file.hpp"

namespace backends {
namespace {

using Clock = ChildProcess::Clock;
using Wait = ChildProcess::Wait;

// ---- formatting ----

std::string seconds_text(double seconds) {
    std::ostringstream out;
    out << seconds << " s";
    return out.str();
}

std::string with_stderr(const std::string& tail) {
    return tail.empty() ? "" : "; stderr: " + tail;
}

std::string joined(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& arg : argv)
        out += (out.empty() ? "" : " ") + arg;
    return out;
}

Clock::time_point deadline_after(double seconds) {
    // NaN, negative or absurd timeouts must not overflow the clock arithmetic.
    const double clamped = seconds > 0 ? std::min(seconds, 1e7) : 0.0;
    return Clock::now() +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(clamped));
}

// ---- the scratch directory and a call's files in it ----

// mkdtemp'd on /dev/shm where possible, so that tensors cross as memory copies; else under
// TMPDIR (or /tmp). Removed with everything in it on destruction.
class ScratchDir {
  public:
    ScratchDir();
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);  // removes symlinks, never follows them
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

ScratchDir::ScratchDir() {
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string fallback = tmpdir && *tmpdir ? tmpdir : "/tmp";
    int err = 0;
    for (const std::string& base : {std::string("/dev/shm"), fallback}) {
        std::string name = base + "/eltwise-XXXXXX";
        if (::mkdtemp(name.data())) {
            path_ = std::move(name);
            return;
        }
        err = errno;
    }
    throw BackendStartError("cannot create a scratch directory under /dev/shm or " + fallback +
                            ": " + std::generic_category().message(err));
}

// `a.npy` and `b.npy`, rewritten in place call after call (tmpfs then reuses their pages: a
// fresh 64 MiB costs as much again as writing it), and `<id>.out.npy`, removed before and after
// the call so that only a file the backend writes now may count as its answer.
struct CallFiles {
    CallFiles(const std::string& dir, std::int64_t id)
        : a(dir + "/a.npy"), b(dir + "/b.npy"), out(dir + "/" + std::to_string(id) + ".out.npy") {
        ::unlink(out.c_str());
    }
    ~CallFiles() { ::unlink(out.c_str()); }
    CallFiles(const CallFiles&) = delete;
    CallFiles& operator=(const CallFiles&) = delete;
    std::string a, b, out;
};

// The request line, '\n' included: the inputs where they lie in the shared tensor memory when
// `shared` places them (PROTOCOL.md section 9, item 18), else written into the files.
std::string send_inputs(const Call& call, const CallFiles& files, std::optional<OutRegion> region,
                        const std::optional<SharedInputs>& shared) {
    Request request{call.id,
                    call.op->id(),
                    call.attributes,
                    {files.a, call.a->type, call.a->shape, std::nullopt},
                    {files.b, call.b->type, call.b->shape, std::nullopt},
                    files.out,
                    call.graph_form,
                    std::move(region)};
    if (shared) {
        request.a.path = request.b.path = shared->path;
        request.a.offset = shared->a;
        request.b.offset = shared->b;
    } else {
        io::write_npy(files.a, *call.a, io::NpyWrite::in_place);
        io::write_npy(files.b, *call.b, io::NpyWrite::in_place);
    }
    return to_line(request) + '\n';
}

// ---- the output file's size ----

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();
// Room for any header, and for a wrong but modest answer, which the comparison reports.
constexpr std::uint64_t kOutputSlack = std::uint64_t{1} << 20;

// The data bytes of an honest answer: the broadcast output's, or for a call the spec rejects
// (no output shape) the larger input's. Saturates rather than overflows.
std::uint64_t output_bytes(const core::PreparedCall& p) {
    const auto count = static_cast<std::uint64_t>(core::element_count(p.plan.output));
    const std::uint64_t item = core::byte_size(p.type);
    return count > kMaxBytes / item ? kMaxBytes : count * item;
}

std::uint64_t expected_output_bytes(const Call& call) {
    if (call.prepared) return output_bytes(*call.prepared);
    try {
        return output_bytes(core::prepare_call(*call.op, call.attributes, *call.a, *call.b));
    } catch (const std::exception&) {
        return std::max(call.a->bytes.size(), call.b->bytes.size());
    }
}

// A backend's output file larger than this is refused unread: reading it would cost memory and
// time out of all proportion to the case. Twice the data leaves room for a wider result type.
std::uint64_t output_file_limit(std::uint64_t expected_bytes) {
    return expected_bytes > (kMaxBytes - kOutputSlack) / 2 ? kMaxBytes
                                                           : 2 * expected_bytes + kOutputSlack;
}

// ---- the backend ----

class ProcessBackend : public Backend {
  public:
    explicit ProcessBackend(const ProcessOptions& options);
    ~ProcessBackend() override;
    const Hello& hello() const override { return hello_; }
    Result run(const Call& call) override;

  private:
    struct Started {
        std::unique_ptr<ChildProcess> child;
        Hello hello;
    };
    Started start() const;
    [[noreturn]] void fail_start(ChildProcess& child, const std::string& what) const;
    std::optional<Result> ensure_child();  // a Result when a needed restart failed
    std::optional<OutRegion> offer_region(const Call& call);
    Result conclude(Wait wait, const Call& call, const CallFiles& files, const std::string& line,
                    bool offered);
    Result interpret(const Call& call, const CallFiles& files, const std::string& line,
                     bool offered);
    Result answered(const Call& call, const CallFiles& files, const Response& response,
                    bool offered);
    Result read_output(const Call& call, const std::string& path,
                       std::optional<core::ElementType> dtype);
    Result oversized_output(const Call& call, const std::string& path,
                            std::optional<core::ElementType> dtype, std::uint64_t size,
                            std::uint64_t expected);
    Result read_region(std::optional<core::ElementType> dtype);
    Result fault(Outcome outcome, std::string message);

    ProcessOptions options_;
    std::string command_;                         // for messages
    ScratchDir scratch_;                          // outlives child_, which may be writing in it
    SharedRegion region_{RegionWriter::backend};  // for a hello with output_region
    std::unique_ptr<ChildProcess> child_;         // null after a fault until the next call
    Hello hello_;                                 // from the first start
};

ProcessBackend::ProcessBackend(const ProcessOptions& options)
    : options_(options), command_(joined(options.argv)) {
    if (options.argv.empty()) throw BackendStartError("empty backend command");
    Started started = start();
    child_ = std::move(started.child);
    hello_ = std::move(started.hello);
    // Tensors made from now on (the cases' inputs) lie where such a backend reads them.
    if (hello_.input_region) share_tensors();
}

ProcessBackend::~ProcessBackend() {
    if (!child_) return;
    child_->close_stdin_and_wait(Clock::now() + std::chrono::seconds(2));
    child_.reset();  // kills what is left of the group and reaps the child
}

// The child's additions to our environment. OpenMP threads that spin while they wait take the
// cores from the other process, which works while the child waits: a child whose OpenMP wait
// policy the user left unset sleeps instead (measured in perf: libgomp's spin loop was the
// largest single item of an exhaustive16 run through the host).
std::vector<std::string> child_environment(const std::string& scratch,
                                           std::vector<std::string> env) {
    env.push_back("ELTWISE_SCRATCH=" + scratch);
    if (!std::getenv("OMP_WAIT_POLICY")) env.push_back("OMP_WAIT_POLICY=passive");
    return env;
}

ProcessBackend::Started ProcessBackend::start() const {
    std::unique_ptr<ChildProcess> child;
    try {
        child = std::make_unique<ChildProcess>(
            options_.argv, child_environment(scratch_.path(), options_.environment),
            options_.stderr_tail_lines);
    } catch (const std::system_error& e) {
        throw BackendStartError("backend `" + command_ + "`: " + e.what());
    }
    std::string line;
    switch (child->exchange({}, deadline_after(options_.startup_timeout_seconds), line)) {
        case Wait::line:
            break;
        case Wait::ended:
        case Wait::unread:
            fail_start(*child, "exited before its hello (" + child->kill_and_reap() + ")");
        case Wait::closed:
            fail_start(*child, "closed its stdout before its hello");
        case Wait::timeout:
            fail_start(*child, "no hello within " + seconds_text(options_.startup_timeout_seconds));
        case Wait::too_long:
            fail_start(*child, "hello line longer than 1 MiB");
    }
    try {
        Hello hello = parse_hello(line);
        return {std::move(child), std::move(hello)};
    } catch (const ProtocolError& e) {
        fail_start(*child, std::string("bad hello: ") + e.what());
    }
}

void ProcessBackend::fail_start(ChildProcess& child, const std::string& what) const {
    child.kill_and_reap();
    throw BackendStartError("backend `" + command_ + "`: " + what +
                            with_stderr(child.stderr_tail()));
}

std::optional<Result> ProcessBackend::ensure_child() {
    if (child_ && !child_->running()) child_.reset();  // it exited between cases: start afresh
    if (child_) return std::nullopt;
    try {
        child_ = start().child;
        return std::nullopt;
    } catch (const BackendStartError& e) {
        return Result{Outcome::protocol_error, {}, std::string("restart failed: ") + e.what()};
    }
}

Result ProcessBackend::run(const Call& call) {
    if (!call.op || !call.a || !call.b) return {Outcome::error, {}, "incomplete call"};
    const CallFiles files(scratch_.path(), call.id);
    const std::optional<OutRegion> region = offer_region(call);
    std::string request;
    std::optional<SharedInputs> shared;  // held until the answer
    try {
        if (hello_.input_region) shared = place_inputs(*call.a, *call.b);
        request = send_inputs(call, files, region, shared);
    } catch (const std::exception& e) {
        return {Outcome::error, {}, std::string("cannot pass the inputs: ") + e.what()};
    }
    std::string line;
    Wait wait = Wait::unread;
    // A child that died before reading any of the request was ending between cases, not running
    // this one (it answered, then exited): the case gets one more, fresh child. The case's time
    // starts once a child is ready: a restart has its own start-up timeout.
    for (int attempt = 0; attempt < 2 && wait == Wait::unread; ++attempt) {
        if (attempt > 0) child_.reset();
        if (std::optional<Result> failed = ensure_child()) return *failed;
        wait = child_->exchange(request, deadline_after(call.timeout_seconds), line);
    }
    return conclude(wait, call, files, line, region.has_value());
}

// The shared output region for a backend whose hello offers to write into it, large enough for
// an honest answer, its old content spoiled; nothing when memory cannot be had (files then).
std::optional<OutRegion> ProcessBackend::offer_region(const Call& call) {
    if (!hello_.output_region || !region_.reserve(expected_output_bytes(call))) return std::nullopt;
    region_.invalidate();
    return OutRegion{region_.path(), region_.bytes()};
}

Result ProcessBackend::conclude(Wait wait, const Call& call, const CallFiles& files,
                                const std::string& line, bool offered) {
    switch (wait) {
        case Wait::line:
            return interpret(call, files, line, offered);
        case Wait::unread:
        case Wait::ended:
            return fault(Outcome::crashed, child_->kill_and_reap());
        case Wait::closed:
            return fault(Outcome::crashed, "closed its stdout without answering");
        case Wait::timeout:
            return fault(Outcome::hung, "no answer within " + seconds_text(call.timeout_seconds));
        case Wait::too_long:
            return fault(Outcome::protocol_error, "answer line longer than 1 MiB");
    }
    return fault(Outcome::protocol_error, "unreachable");
}

Result ProcessBackend::interpret(const Call& call, const CallFiles& files, const std::string& line,
                                 bool offered) {
    Response response;
    try {
        response = parse_response(line);
    } catch (const ProtocolError& e) {
        return fault(Outcome::protocol_error, e.what());
    }
    if (response.id != call.id)
        return fault(Outcome::protocol_error, "answer has id " + std::to_string(response.id) +
                                                  ", expected " + std::to_string(call.id));
    Result result = answered(call, files, response, offered);
    result.compilations = response.compilations;
    return result;
}

Result ProcessBackend::answered(const Call& call, const CallFiles& files, const Response& response,
                                bool offered) {
    switch (response.status) {
        case Answer::ok:
            // Without a dtype the file says what it holds: a bf16 result sent without "dtype"
            // reads as u16, a type mismatch for the comparison to report.
            if (response.in_region && !offered)
                return fault(Outcome::protocol_error,
                             "answer says in_region, but the request offered no out_region");
            if (response.in_region) return read_region(response.dtype);
            return read_output(call, files.out, response.dtype);
        case Answer::rejected:
            return {Outcome::rejected, {}, response.message, response.reason};
        case Answer::unsupported:
            return {Outcome::unsupported, {}, response.message};
        case Answer::error:
            return {Outcome::error, {}, response.message};
    }
    return fault(Outcome::protocol_error, "unknown status");
}

Result ProcessBackend::read_output(const Call& call, const std::string& path,
                                   std::optional<core::ElementType> dtype) {
    // We read only the path we chose (an "out" field in the answer is ignored), and never
    // through a link to somewhere else.
    struct stat st {};
    const bool found = ::lstat(path.c_str(), &st) == 0;
    if (found && S_ISLNK(st.st_mode))
        return fault(Outcome::protocol_error, "output '" + path + "' is a symbolic link");
    const std::uint64_t expected = expected_output_bytes(call);
    const std::uint64_t limit = output_file_limit(expected);
    if (found && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit)
        return oversized_output(call, path, dtype, static_cast<std::uint64_t>(st.st_size),
                                expected);
    try {
        // The same limits again on the opened file: the child is alive and may swap or grow
        // the file after the lstat.
        const io::NpyReadLimits limits{.max_file_bytes = limit, .follow_symlinks = false};
        return {Outcome::ok, io::read_npy(path, dtype, limits), ""};
    } catch (const std::exception& e) {
        return fault(Outcome::protocol_error, e.what());
    }
}

// An output file above the limit is not read. When its header agrees with its size, the answer
// is the wrong type or shape the header names (for the judge: FAILED, shape or dtype); else the
// file lies about itself, a fault of the protocol.
Result ProcessBackend::oversized_output(const Call& call, const std::string& path,
                                        std::optional<core::ElementType> dtype, std::uint64_t size,
                                        std::uint64_t expected) {
    const std::string what = "output file is " + std::to_string(size) +
                             " bytes, far more than the expected output's " +
                             std::to_string(expected) + " bytes";
    try {
        const io::NpyLayout layout = io::read_npy_layout(path, dtype, {.follow_symlinks = false});
        // Only a padded header of up to 1 MiB lets a tiny expected output's type and shape get
        // here: not a wrong answer, but none that is read.
        if (call.prepared && layout.type == call.prepared->type &&
            layout.header.shape == call.prepared->plan.output)
            return fault(Outcome::protocol_error,
                         what + ": its header names the expected type and shape");
        Result r{Outcome::ok, {}, ""};
        r.unread_output = UnreadOutput{layout.type, layout.header.shape, layout.file_bytes};
        return r;
    } catch (const std::exception& e) {
        return fault(Outcome::protocol_error, what + ": " + e.what());
    }
}

// The output in the region, viewed in place: the backend is alive and may still write to the
// region, which can change the verdict but never make a read fault (the memfd's size is sealed).
Result ProcessBackend::read_region(std::optional<core::ElementType> dtype) {
    try {
        Result r{Outcome::ok, {}, ""};
        r.shared_output = io::view_npy(region_.data(), dtype, "out_region " + region_.path());
        return r;
    } catch (const std::exception& e) {
        return fault(Outcome::protocol_error, e.what());
    }
}

// After a crash, a hang or garbage the child's state is unknown: kill its whole group now and
// start a new one before the next call.
Result ProcessBackend::fault(Outcome outcome, std::string message) {
    child_->kill_and_reap();
    message += with_stderr(child_->stderr_tail());
    child_.reset();
    return {outcome, {}, std::move(message)};
}

}  // namespace

std::unique_ptr<Backend> start_process_backend(const ProcessOptions& options) {
    return std::make_unique<ProcessBackend>(options);
}

}  // namespace backends
