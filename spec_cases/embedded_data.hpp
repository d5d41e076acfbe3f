// The spec-case data files, compiled into the binary so that it runs from anywhere.
#pragma once

#include <string_view>
#include <vector>

namespace spec_cases {

struct EmbeddedFile {
    std::string_view path;  // relative to spec_cases/data/
    std::string_view contents;
};

const std::vector<EmbeddedFile>& embedded_files();

// The contents of one file; throws core::Error(input) if it is not embedded.
std::string_view embedded_file(std::string_view path);

}  // namespace spec_cases
