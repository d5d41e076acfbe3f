// The POSIX half of the out-of-process backend client: a child process in its own process group,
// talked to over pipes, watched for death, and killed with everything it started.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backends {

// The last lines a child wrote to stderr, bounded in count and width, so that a child flooding
// stderr costs neither memory nor time: only the lines that can survive are ever copied.
class StderrTail {
  public:
    static constexpr std::size_t kMaxLineChars = 500;

    explicit StderrTail(std::size_t max_lines) : max_lines_(max_lines) {}
    void append(std::string_view data);
    // The kept lines joined by '\n', an unfinished last line included; "" when nothing was kept.
    std::string text() const;

  private:
    void push(std::string line);
    static void append_capped(std::string& line, std::string_view data);

    std::size_t max_lines_;
    std::deque<std::string> lines_;
    std::string partial_;  // the line being written, capped at kMaxLineChars
};

// How a child ended, as crash reports name it: "SIGSEGV", "signal 40", "exit status 3".
std::string describe_wait_status(int status);

class ChildProcess {
  public:
    using Clock = std::chrono::steady_clock;
    // A stdout line longer than this is garbage, not an answer.
    static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

    // Starts argv (argv[0] looked up in PATH) in a new process group whose id is its pid, with
    // stdin/stdout/stderr on pipes and `env` ("NAME=value") added to our environment.
    // Throws std::system_error when it cannot be started (e.g. no such program).
    ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                 std::size_t stderr_tail_lines);
    ~ChildProcess();  // kill_and_reap()
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    enum class Wait {
        line,      // a complete stdout line arrived
        ended,     // the child exited (stdout closed or not) without one
        unread,    // ... and without reading any of `input` (it was ending, not failing)
        closed,    // it closed its stdout and did not exit within a second
        timeout,   // the deadline passed first
        too_long,  // more than kMaxLineBytes without a newline
    };
    // Writes `input` to the child's stdin and waits until `deadline` for one stdout line (put in
    // `line` without its '\n'), draining stderr all the while. A child that closed its stdin
    // (EPIPE) does not stop the wait: its death or silence decides the outcome.
    Wait exchange(std::string_view input, Clock::time_point deadline, std::string& line);

    // Whether the child is still alive (an exited, unreaped child counts as dead).
    bool running();
    // Closes the child's stdin (the protocol's "end") and gives it until `deadline` to exit,
    // still draining its output so that it cannot block on a full pipe.
    void close_stdin_and_wait(Clock::time_point deadline);
    // Kills the whole process group (grandchildren included) and reaps the child. Returns how the
    // child ended: its own exit status or signal if it had already exited, else "SIGKILL".
    std::string kill_and_reap();

    std::string stderr_tail() const { return stderr_.text(); }

  private:
    void spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env);
    bool exited();
    bool take_line(std::string& line);
    void poll_once(std::string_view& input, Clock::time_point deadline);
    bool read_stdout();
    bool read_stderr();
    void write_stdin(std::string_view& input);
    void drain_after_exit();
    bool input_untouched(std::size_t input_size) const;

    pid_t pid_ = -1;
    int stdin_ = -1, stdout_ = -1, stderr_fd_ = -1;
    int pidfd_ = -1;  // readable once the child exits; -1 where pidfd_open is missing
    bool reaped_ = false;
    std::optional<int> status_;  // the wait status, once reaped
    std::size_t sent_ = 0;       // bytes of the current exchange's input written to stdin
    std::string out_;            // stdout bytes not yet returned as lines
    std::size_t scanned_ = 0;    // out_[0, scanned_) holds no '\n'
    std::vector<char> chunk_;    // one read buffer for both pipes
    StderrTail stderr_;
};

}  // namespace backends
