#include "backend_host/tests/host_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace backend_host {
namespace {

using Clock = std::chrono::steady_clock;

// Appended last, so that they override whatever the test environment sets.
constexpr std::string_view kLetSignalsKill =
    "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0";

std::vector<std::string> child_environment() {
    std::string asan(kLetSignalsKill), ubsan(kLetSignalsKill);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string_view v = *e;
        if (v.starts_with("ASAN_OPTIONS="))
            asan = std::string(v.substr(13)) + ":" + asan;
        else if (v.starts_with("UBSAN_OPTIONS="))
            ubsan = std::string(v.substr(14)) + ":" + ubsan;
        else
            env.emplace_back(v);
    }
    env.push_back("ASAN_OPTIONS=" + asan);
    env.push_back("UBSAN_OPTIONS=" + ubsan);
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

int remaining_ms(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

Clock::time_point after(double seconds) {
    return Clock::now() + std::chrono::microseconds(static_cast<long long>(seconds * 1e6));
}

}  // namespace

HostProcess::HostProcess(const std::vector<std::string>& argv, const std::string& stderr_path) {
    ::signal(SIGPIPE, SIG_IGN);  // a dead child must fail send(), not kill the test
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe2 failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<std::string> args = argv, env = child_environment();
    const int rc = ::posix_spawn(&pid_, args[0].c_str(), &actions, nullptr, pointers(args).data(),
                                 pointers(env).data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    stdin_fd_ = in[1];
    stdout_fd_ = out[0];
    if (rc != 0) {
        pid_ = -1;  // kill(-1) would signal every process we may signal
        close_stdin();
        ::close(stdout_fd_);
        throw std::runtime_error("posix_spawn failed: " + std::string(std::strerror(rc)));
    }
}

HostProcess::~HostProcess() {
    close_stdin();
    if (stdout_fd_ >= 0) ::close(stdout_fd_);
    if (!status_ && pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
}

bool HostProcess::send(std::string_view line) {
    std::string data(line);
    data += '\n';
    for (std::size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(stdin_fd_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> HostProcess::read_line(double timeout_seconds) {
    const auto deadline = after(timeout_seconds);
    for (;;) {
        const std::size_t newline = buffer_.find('\n');
        if (newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return line;
        }
        pollfd p{stdout_fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, remaining_ms(deadline));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return std::nullopt;
        char chunk[4096];
        const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::nullopt;
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void HostProcess::close_stdin() {
    if (stdin_fd_ >= 0) ::close(stdin_fd_);
    stdin_fd_ = -1;
}

std::optional<int> HostProcess::wait(double timeout_seconds) {
    const auto deadline = after(timeout_seconds);
    while (!status_) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_)
            status_ = status;
        else if (r < 0 && errno != EINTR)
            throw std::runtime_error("waitpid failed");
        else if (Clock::now() >= deadline)
            return std::nullopt;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return status_;
}

}  // namespace backend_host
