// Files compiled into the binary (cmake/EmbedFiles.cmake), so that the tools run from anywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace core {

struct EmbeddedFile {
    std::string_view path;  // relative to the directory the build embedded them from
    std::string_view contents;
};

// The contents of `path` among `files`; throws core::Error(input) naming it when absent.
inline std::string_view embedded_file(const std::vector<EmbeddedFile>& files,
                                      std::string_view path) {
    for (const EmbeddedFile& f : files)
        if (f.path == path) return f.contents;
    throw Error(ErrorKind::input, "no embedded file '" + std::string(path) + "'");
}

}  // namespace core
