#include "validator/backend_choice.hpp"

#include <stdexcept>

#include "backends/process_backend.hpp"

namespace validator {

std::unique_ptr<backends::Backend> open_backend(const std::string& name,
                                                const std::string& command) {
    if (name.empty() == command.empty())
        throw std::invalid_argument("give exactly one of --backend NAME and --backend-cmd CMD");
    if (!command.empty())
        return backends::start_process_backend({backends::split_command_line(command)});
    if (auto builtin = backends::make_builtin_backend(name)) return builtin;
    std::string known;
    for (std::string_view n : backends::builtin_backend_names())
        known += (known.empty() ? "" : ", ") + std::string(n);
    throw std::invalid_argument("unknown backend '" + name + "' (built in: " + known + ")");
}

}  // namespace validator
