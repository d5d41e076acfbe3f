#include "fuzz/fuzz_input.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "core/element_text.hpp"

namespace fuzz {
namespace fs = std::filesystem;

namespace {

fs::path scratch_parent() {
    if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp) return tmp;
    return fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
}

// The directory goes when the process ends normally; a crash leaves it for inspection.
struct ScratchDir {
    fs::path path = scratch_parent() / ("eltwise-fuzz-" + std::to_string(::getpid()));
    ScratchDir() { fs::create_directories(path); }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

}  // namespace

Selected split_selector(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return {};
    return {data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)};
}

core::ElementType element_type_of(std::uint8_t selector) {
    return core::kElementTypes[selector % core::kElementTypes.size()].type;
}

const std::string& scratch_dir() {
    static const ScratchDir dir;
    static const std::string text = dir.path.string();
    return text;
}

std::string write_input_file(std::string_view name, std::string_view bytes) {
    const std::string path = scratch_dir() + "/" + std::string(name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) throw std::runtime_error("fuzz: cannot write " + path);
    return path;
}

// The first elements only: a one-value fill of millions of elements would time the fuzzer out.
constexpr std::int64_t kRoundTripElements = 4096;

void check_text_round_trip(const core::Tensor& t) {
    core::Tensor back = core::Tensor::zeros(t.type, {});
    const std::uint64_t sign = std::uint64_t{1} << (8 * core::byte_size(t.type) - 1);
    for (std::int64_t i = 0; i < std::min<std::int64_t>(t.size(), kRoundTripElements); ++i) {
        const std::string text = core::format_element(t, i);
        core::parse_element(back, 0, text);
        const std::uint64_t bits = core::element_bits(t, i), read = core::element_bits(back, 0);
        const bool nan = core::is_floating(t.type) &&
                         core::element_as_double(t, i) != core::element_as_double(t, i);
        const bool same =
            nan ? core::element_as_double(back, 0) != core::element_as_double(back, 0) &&
                      (bits & sign) == (read & sign)
                : bits == read;
        if (!same)
            property_failed("'" + text + "' does not read back as element " + std::to_string(i) +
                            " of " + std::string(core::name(t.type)));
    }
}

void property_failed(const std::string& what) {
    std::cerr << "property failed: " << what << std::endl;
    std::abort();
}

}  // namespace fuzz
