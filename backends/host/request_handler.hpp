// One protocol request served by a plugin: the inputs mapped, the plugin called, the output
// file completed, and the answer (backends/PROTOCOL.md sections 3 and 4).
#pragma once

#include <string>
#include <string_view>

#include "backends/host/plugin_library.hpp"
#include "backends/protocol.hpp"
#include "io/npy_mapping.hpp"

namespace backends::host {

// The answer to one request. Never throws for anything the request or the plugin does: a
// malformed request, an unknown op or a bad input file is an `error` answer. `regions` keeps the
// request's out_region mapped for the next request; one that cannot be mapped is not used.
Response serve(const Request& request, const PluginLibrary& plugin, io::RegionMapping& regions);

// The answer line (no newline) to one request line, which may be anything: a line that is not
// a request is answered `error` with the id it carries if it has one, else -1.
std::string answer_line(std::string_view request_line, const PluginLibrary& plugin,
                        io::RegionMapping& regions);

}  // namespace backends::host
