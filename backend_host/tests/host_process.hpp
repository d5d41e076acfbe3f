// A minimal pipe driver for tests: runs a command as a child with its stdin and stdout on
// pipes and its stderr in a file, sends lines, reads lines with a timeout, and reports how the
// child ended.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backend_host {

class HostProcess {
  public:
    // Starts argv[0] (a path) with stderr redirected to `stderr_path`. The child's ASan and
    // UBSan are told to leave SIGSEGV, SIGFPE and SIGABRT alone, so that a crashing plugin
    // dies of the signal as it would in a normal build. Throws std::runtime_error.
    HostProcess(const std::vector<std::string>& argv, const std::string& stderr_path);
    // Kills the child if it still runs, and reaps it.
    ~HostProcess();
    HostProcess(const HostProcess&) = delete;
    HostProcess& operator=(const HostProcess&) = delete;

    // Writes `line` and a newline; false if the child no longer reads.
    bool send(std::string_view line);
    // The next line without its newline; nullopt at end of output or after timeout_seconds.
    std::optional<std::string> read_line(double timeout_seconds);
    void close_stdin();

    // The wait status (for WIFEXITED & co.) once the child ends within timeout_seconds;
    // nullopt if it is still running then.
    std::optional<int> wait(double timeout_seconds);

  private:
    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int stdout_fd_ = -1;
    std::string buffer_;  // output read but not yet returned as lines
    std::optional<int> status_;
};

}  // namespace backend_host
