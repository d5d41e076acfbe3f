// Replacing a file in one step, so that readers and failed writes never leave a half-written file.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace io {

// Writes the concatenation of `pieces` to a temporary file next to `path`, flushes it to disk
// and renames it over `path`. Until the rename, an existing file at `path` is untouched; on any
// failure the temporary file is removed. Throws core::Error(input) naming `path`.
// The new file gets default permissions (0666 minus umask), not those of the file it replaces.
void write_file_atomically(const std::string& path,
                           std::span<const std::span<const std::byte>> pieces);

// The opposite trade-off, for scratch files rewritten call after call: overwrites `path` (created
// if missing, never through a symbolic link) from its start and cuts it to the new size, so
// that pages the file already has are reused (on tmpfs, allocating 64 MiB of fresh pages costs
// as much as writing them). A failure leaves the file partly written. Throws
// core::Error(input) naming `path`.
void write_file_in_place(const std::string& path,
                         std::span<const std::span<const std::byte>> pieces);

}  // namespace io
