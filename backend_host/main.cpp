// eltwise-backend-host PLUGIN.so [PLUGIN ARGS...]: serves the eltwise-backend/1 protocol on
// stdin/stdout with a native plugin (plugins/eltwise_backend.h).
//
// stdout carries protocol lines only, written with C stdio and flushed after each line: a
// plugin that prints to stdout shares that stream, and its garbage reaches the validator
// exactly as it would from any other backend (a fault the validator must detect). Blank input
// lines are ignored; every other line gets one answer. Exit status: 0 when stdin closes,
// 2 for a usage error or a plugin that cannot be loaded.
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "backend_host/plugin_library.hpp"
#include "backend_host/request_handler.hpp"
#include "core/large_buffers.hpp"

namespace {

constexpr int kUsageError = 2;

void write_line(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

bool blank(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

int serve_stdin(const backend_host::PluginLibrary& plugin) {
    write_line(backends::to_line(plugin.hello()));
    backend_host::Regions regions;
    for (std::string line; std::getline(std::cin, line);)
        if (!blank(line)) write_line(backend_host::answer_line(line, plugin, regions));
    return 0;
}

constexpr const char* kUsage =
    "usage: eltwise-backend-host PLUGIN.so [PLUGIN ARGS...]\n"
    "Serves the eltwise-backend/1 protocol on stdin/stdout with a native plugin (see "
    "plugins/eltwise_backend.h). PLUGIN.so without a '/' is looked up in the current "
    "directory first, then where dlopen looks.\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return kUsageError;
    }
    if (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const std::string path = argv[1];
    core::reuse_large_buffers();  // plugins built on core::Tensor allocate per call
    try {
        const backend_host::PluginLibrary plugin(path,
                                                 std::vector<std::string>(argv + 2, argv + argc));
        return serve_stdin(plugin);
    } catch (const backend_host::PluginLoadError& e) {
        std::fprintf(stderr, "eltwise-backend-host: plugin '%s': %s\n", path.c_str(), e.what());
        return kUsageError;
    }
}
