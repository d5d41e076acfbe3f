// Which backend a command talks to: a built-in one by name, or a child process by command line.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.hpp"

namespace validator {

// Exactly one of `name` and `command` must be given. Throws std::invalid_argument for an
// unknown name or a malformed command line, backends::BackendStartError when the child cannot
// be started or says no valid hello.
std::unique_ptr<backends::Backend> open_backend(const std::string& name,
                                                const std::string& command);

}  // namespace validator
