// An out-of-process backend speaking eltwise-backend/1 over the child's stdin and stdout.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "backends/command_line.hpp"

namespace backends {

struct ProcessOptions {
    std::vector<std::string> argv;              // argv[0] is looked up in PATH
    double startup_timeout_seconds = 30;        // for the hello
    std::size_t stderr_tail_lines = 20;         // kept for crash reports
    std::vector<std::string> environment = {};  // "NAME=value" added to its environment
};

// The child could not be started, or its hello was missing, malformed or of another protocol
// (a PROTOCOL_ERROR for the whole run, backends/PROTOCOL.md section 2).
class BackendStartError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Starts the child in its own process group with ELTWISE_SCRATCH set to a fresh directory (on
// /dev/shm where it exists, else under TMPDIR), reads its hello, and from then on maps every
// event to an Outcome: death mid-case -> crashed, no answer within the call's timeout -> hung,
// garbage / wrong id / bad output file -> protocol_error. After each of these the child is
// killed (whole process group) and restarted before the next call. Destruction closes the
// child's stdin, waits briefly, kills what is left, and removes the scratch directory.
// Throws BackendStartError.
std::unique_ptr<Backend> start_process_backend(const ProcessOptions& options);

}  // namespace backends
