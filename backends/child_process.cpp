#include "backends/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <system_error>

extern char** environ;

namespace backends {
namespace {

constexpr std::size_t kReadChunk = std::size_t{1} << 16;
// After the child's death, a grandchild may still hold the pipes and keep writing: reading what
// is already there must not turn into following it forever.
constexpr int kMaxDrainReads = 64;
// How long a child that closed its stdout gets to exit, so that its real end can be reported.
constexpr std::chrono::seconds kExitGrace{1};

struct SignalName {
    int number;
    const char* name;
};
constexpr SignalName kSignalNames[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
    {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
    {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
    {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
};

// A child that dies must never take the validator with it when we write to its stdin. Checked
// at every start, as the program may have reset it; a handler of the program's own stays.
void ignore_sigpipe() {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
        std::signal(SIGPIPE, SIG_IGN);
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

void set_nonblocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Our environment with the entries of `extra` replacing those of the same name.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view name = entry.substr(0, entry.find('='));
        const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const std::string& x) {
            return x.size() > name.size() && x.compare(0, name.size(), name) == 0 &&
                   x[name.size()] == '=';
        });
        if (!replaced) out.emplace_back(entry);
    }
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (const std::string& s : strings)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

// posix_spawnp rather than fork: no copy of a parent that may hold gigabytes of tensors, and exec
// failures (no such program) come back as the return value. Returns 0 or an errno value.
int spawn_in_new_group(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                       const int (&child_fds)[3], pid_t& pid) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int target = 0; target < 3; ++target)
        posix_spawn_file_actions_adddup2(&actions, child_fds[target], target);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t signals;
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attr, &signals);
    sigaddset(&signals, SIGPIPE);  // we ignore it; the backend should get the usual default
    posix_spawnattr_setsigdefault(&attr, &signals);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const std::vector<std::string> environment = merged_environment(env);
    std::vector<char*> args = c_strings(argv), envp = c_strings(environment);
    const int rc = ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int pidfd_for(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // always close-on-exec
#else
    (void)pid;
    return -1;
#endif
}

int milliseconds_until(ChildProcess::Clock::time_point deadline) {
    const auto left = deadline - ChildProcess::Clock::now();
    if (left <= ChildProcess::Clock::duration::zero()) return 0;
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    return static_cast<int>(std::min<long long>(ms, INT_MAX));
}

}  // namespace

// ---- StderrTail ----

void StderrTail::append_capped(std::string& line, std::string_view data) {
    if (line.size() < kMaxLineChars) line.append(data.substr(0, kMaxLineChars - line.size()));
}

void StderrTail::push(std::string line) {
    lines_.push_back(std::move(line));
    while (lines_.size() > max_lines_)
        lines_.pop_front();
}

void StderrTail::append(std::string_view data) {
    if (max_lines_ == 0) return;
    const std::size_t last = data.rfind('\n');
    if (last == std::string_view::npos) return append_capped(partial_, data);
    // Walk back from the last newline collecting at most max_lines_ complete lines.
    std::vector<std::string_view> newest;  // newest first
    std::size_t end = last;
    bool reached_start = false;
    while (newest.size() < max_lines_) {
        const std::size_t nl = end == 0 ? std::string_view::npos : data.rfind('\n', end - 1);
        if (nl == std::string_view::npos) {
            reached_start = true;
            break;
        }
        newest.push_back(data.substr(nl + 1, end - nl - 1));
        end = nl;
    }
    if (reached_start) {  // data[0, end) finishes the line already begun
        append_capped(partial_, data.substr(0, end));
        push(std::move(partial_));
    } else {  // everything older is pushed out by the newer lines
        lines_.clear();
    }
    for (auto it = newest.rbegin(); it != newest.rend(); ++it)
        push(std::string(it->substr(0, kMaxLineChars)));
    partial_.clear();
    append_capped(partial_, data.substr(last + 1));
}

std::string StderrTail::text() const {
    std::vector<const std::string*> shown;
    for (const std::string& line : lines_)
        shown.push_back(&line);
    if (!partial_.empty()) shown.push_back(&partial_);
    const std::size_t skip = shown.size() > max_lines_ ? shown.size() - max_lines_ : 0;
    std::string out;
    for (std::size_t i = skip; i < shown.size(); ++i)
        out += (i > skip ? "\n" : "") + *shown[i];
    return out;
}

std::string describe_wait_status(int status) {
    if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
    if (!WIFSIGNALED(status)) return "wait status " + std::to_string(status);
    const int sig = WTERMSIG(status);
    for (const SignalName& s : kSignalNames)
        if (s.number == sig) return s.name;
    return "signal " + std::to_string(sig);
}

// ---- ChildProcess ----

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env, std::size_t stderr_tail_lines)
    : chunk_(kReadChunk), stderr_(stderr_tail_lines) {
    if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "empty command");
    ignore_sigpipe();
    spawn(argv, env);
}

ChildProcess::~ChildProcess() {
    kill_and_reap();
    close_fd(stdin_);
    close_fd(stdout_);
    close_fd(stderr_fd_);
    close_fd(pidfd_);
}

void ChildProcess::spawn(const std::vector<std::string>& argv,
                         const std::vector<std::string>& env) {
    // Close-on-exec everywhere: the dup2 onto 0/1/2 clears it for the child's own ends only, so
    // no other child (or grandchild) inherits a pipe and keeps it open.
    int fds[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    int err = 0;
    for (auto& p : fds)
        if (err == 0 && ::pipe2(p, O_CLOEXEC) != 0) err = errno;
    const int child_fds[3] = {fds[0][0], fds[1][1], fds[2][1]};
    if (err == 0) err = spawn_in_new_group(argv, env, child_fds, pid_);
    close_fd(fds[0][0]);
    close_fd(fds[1][1]);
    close_fd(fds[2][1]);
    stdin_ = fds[0][1];
    stdout_ = fds[1][0];
    stderr_fd_ = fds[2][0];
    if (err != 0) {  // the destructor will not run: close our ends here
        close_fd(stdin_);
        close_fd(stdout_);
        close_fd(stderr_fd_);
        throw std::system_error(err, std::generic_category(), "cannot start '" + argv[0] + "'");
    }
    for (int fd : {stdin_, stdout_, stderr_fd_})
        set_nonblocking(fd);
    pidfd_ = pidfd_for(pid_);
}

bool ChildProcess::exited() {
    if (reaped_) return true;
    siginfo_t info{};
    // WNOWAIT leaves the child a zombie, so its pid (the group id) stays ours until the group has
    // been killed in kill_and_reap().
    while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
        if (errno != EINTR) return true;  // ECHILD: reaped behind our back (SIGCHLD ignored)
    return info.si_pid != 0;
}

bool ChildProcess::running() {
    return !exited();
}

bool ChildProcess::take_line(std::string& line) {
    const std::size_t nl = out_.find('\n', scanned_);
    if (nl == std::string::npos) {
        scanned_ = out_.size();
        return false;
    }
    line.assign(out_, 0, nl);
    out_.erase(0, nl + 1);
    scanned_ = 0;
    return true;
}

// Returns whether it read anything; EOF or a read error closes our end.
bool ChildProcess::read_stdout() {
    const ssize_t n = ::read(stdout_, chunk_.data(), chunk_.size());
    if (n > 0) out_.append(chunk_.data(), static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_fd(stdout_);
    return n > 0;
}

bool ChildProcess::read_stderr() {
    const ssize_t n = ::read(stderr_fd_, chunk_.data(), chunk_.size());
    if (n > 0) stderr_.append(std::string_view(chunk_.data(), static_cast<std::size_t>(n)));
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_fd(stderr_fd_);
    return n > 0;
}

void ChildProcess::write_stdin(std::string_view& input) {
    if (stdin_ < 0) return void(input = {});
    const ssize_t n = ::write(stdin_, input.data(), input.size());
    if (n >= 0) {
        sent_ += static_cast<std::size_t>(n);
        return input.remove_prefix(static_cast<std::size_t>(n));
    }
    // EPIPE: the child closed its stdin or died; what it does next decides the outcome.
    if (errno != EAGAIN && errno != EINTR) input = {};
}

void ChildProcess::poll_once(std::string_view& input, Clock::time_point deadline) {
    pollfd fds[4];
    nfds_t count = 0;
    const auto add = [&](int fd, short events) {
        if (fd >= 0) fds[count++] = pollfd{fd, events, 0};
    };
    add(stdout_, POLLIN);
    add(stderr_fd_, POLLIN);
    add(input.empty() ? -1 : stdin_, POLLOUT);
    add(pidfd_, POLLIN);
    int timeout = milliseconds_until(deadline);
    if (pidfd_ < 0) timeout = std::min(timeout, 10);  // no death notification: look regularly
    if (::poll(fds, count, timeout) <= 0) return;
    for (nfds_t i = 0; i < count; ++i) {
        if (fds[i].revents == 0) continue;
        if (fds[i].fd == stdout_) read_stdout();
        if (fds[i].fd == stderr_fd_) read_stderr();
        if (fds[i].fd == stdin_) write_stdin(input);
    }
}

void ChildProcess::drain_after_exit() {
    for (int i = 0; i < kMaxDrainReads && stdout_ >= 0 && out_.size() <= kMaxLineBytes; ++i)
        if (!read_stdout()) break;
    for (int i = 0; i < kMaxDrainReads && stderr_fd_ >= 0; ++i)
        if (!read_stderr()) break;
}

// Whether all `input_size` bytes sent so far still sit unread in the stdin pipe (or none could
// be sent because nobody was reading any more).
bool ChildProcess::input_untouched(std::size_t input_size) const {
    if (input_size == 0) return false;
    int unread = 0;
    if (stdin_ < 0 || ::ioctl(stdin_, FIONREAD, &unread) != 0) return false;
    return static_cast<std::size_t>(unread) == sent_;
}

ChildProcess::Wait ChildProcess::exchange(std::string_view input, Clock::time_point deadline,
                                          std::string& line) {
    const std::size_t input_size = input.size();
    sent_ = 0;
    write_stdin(input);  // the pipe is almost always empty: usually no poll needed for this
    std::optional<Clock::time_point> closed_limit;
    while (true) {
        if (take_line(line)) return Wait::line;
        if (out_.size() > kMaxLineBytes) return Wait::too_long;
        if (exited()) {
            // Everything it wrote before dying is in the pipes by now; it may have answered.
            drain_after_exit();
            if (take_line(line)) return Wait::line;
            if (out_.size() > kMaxLineBytes) return Wait::too_long;
            return input_untouched(input_size) ? Wait::unread : Wait::ended;
        }
        // Without stdout it can never answer; a dying child needs only a moment more to exit.
        if (stdout_ < 0 && !closed_limit) closed_limit = Clock::now() + kExitGrace;
        const Clock::time_point limit = closed_limit ? std::min(deadline, *closed_limit) : deadline;
        if (Clock::now() >= limit) return limit < deadline ? Wait::closed : Wait::timeout;
        poll_once(input, limit);
    }
}

void ChildProcess::close_stdin_and_wait(Clock::time_point deadline) {
    close_fd(stdin_);
    std::string_view nothing;
    while (!exited() && Clock::now() < deadline) {
        poll_once(nothing, deadline);
        if (out_.size() > kMaxLineBytes) out_.clear();  // nobody reads it any more
    }
}

std::string ChildProcess::kill_and_reap() {
    if (!reaped_) {
        ::kill(-pid_, SIGKILL);
        int status = 0;
        pid_t r;
        do {
            r = ::waitpid(pid_, &status, 0);
        } while (r < 0 && errno == EINTR);
        reaped_ = true;
        if (r == pid_) status_ = status;
    }
    return status_ ? describe_wait_status(*status_) : "exit status unknown";
}

}  // namespace backends
