#include "spec_cases/embedded_data.hpp"

#include <string>

#include "core/error.hpp"

namespace spec_cases {

std::string_view embedded_file(std::string_view path) {
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == path) return f.contents;
    throw core::Error(core::ErrorKind::input,
                      "no embedded spec-case file '" + std::string(path) + "'");
}

}  // namespace spec_cases
