// The spec-case data files, compiled into the binary so that it runs from anywhere.
#pragma once

#include <string_view>
#include <vector>

#include "core/embedded_file.hpp"

namespace spec_cases {

using core::EmbeddedFile;

// Paths relative to spec_cases/data/.
const std::vector<EmbeddedFile>& embedded_files();

// The contents of one file; throws core::Error(input) if it is not embedded.
inline std::string_view embedded_file(std::string_view path) {
    return core::embedded_file(embedded_files(), path);
}

}  // namespace spec_cases
