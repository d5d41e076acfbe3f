// Command lines of backends and adapters, read as a POSIX shell reads them, without a shell.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace backends {

// Splits a command line like a POSIX shell would (single and double quotes, backslash escapes),
// without a shell: no variables, globs or redirections. Throws std::invalid_argument on an
// unterminated quote or an empty command.
std::vector<std::string> split_command_line(std::string_view command);

// The word as split_command_line reads it back: unchanged when it holds only characters no
// shell treats specially, else in single quotes (a ' inside becomes '\'').
std::string shell_quoted(std::string_view word);

}  // namespace backends
