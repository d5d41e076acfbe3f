// One protocol request served by a plugin: the inputs mapped, the plugin called, the output
// file completed, and the answer (backends/PROTOCOL.md sections 3 and 4).
#pragma once

#include <string>
#include <string_view>

#include "backend_host/plugin_library.hpp"
#include "backends/protocol.hpp"
#include "io/npy_mapping.hpp"

namespace backend_host {

// The shared regions the requests name, kept mapped from request to request: the out_region
// (section 9, item 17) and the input region (item 18).
struct Regions {
    io::RegionMapping output;
    io::InputRegionMapping inputs;
};

// The answer to one request. Never throws for anything the request or the plugin does: a
// malformed request, an unknown op or a bad input file is an `error` answer. `regions` keeps the
// request's regions mapped for the next request; an out_region that cannot be mapped is not
// used (the output goes to the file), an input region that cannot be is an `error` answer.
backends::Response serve(const backends::Request& request, const PluginLibrary& plugin,
                         Regions& regions);

// The answer line (no newline) to one request line, which may be anything: a line that is not
// a request is answered `error` with the id it carries if it has one, else -1.
std::string answer_line(std::string_view request_line, const PluginLibrary& plugin,
                        Regions& regions);

}  // namespace backend_host
