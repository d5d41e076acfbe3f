// The .npy codec: users' input files and every backend's output file (read_npy), and the same
// bytes as the plugin host maps them (parse_npy_header). Selector: 0 reads the file as it is,
// k > 0 asks for the k-th element type (bf16 reads '<u2' bits). A file that reads must write
// back and read again to the same tensor, and its mapped header and its view in shared memory
// (view_npy) must agree with it.
#include <algorithm>
#include <span>

#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "io/npy_file.hpp"

namespace {

std::optional<core::ElementType> wanted_type(std::uint8_t selector) {
    if (selector % 14 == 0) return std::nullopt;
    return fuzz::element_type_of(static_cast<std::uint8_t>(selector % 14 - 1));
}

void check_round_trip(const core::Tensor& t) {
    const std::string path = fuzz::scratch_dir() + "/round_trip.npy";
    io::write_npy(path, t, io::NpyWrite::in_place);
    const core::Tensor back = io::read_npy(path, t.type);
    if (back.type != t.type || back.shape != t.shape || back.bytes != t.bytes)
        fuzz::property_failed("write_npy then read_npy changed the tensor");
}

std::span<const std::byte> bytes_of(std::string_view text) {
    return std::as_bytes(std::span(text.data(), text.size()));
}

// The host's path: the header parsed from memory, then the data size checked.
void check_mapped_header(std::span<const std::byte> file, const core::Tensor& t) {
    const io::NpyHeader h = io::parse_npy_header(file, "input.npy");
    io::check_npy_data_size(h, t.type, file.size() - h.data_offset, "input.npy");
    if (h.shape != t.shape || io::npy_element_type(h, t.type, "input.npy") != t.type)
        fuzz::property_failed("parse_npy_header disagrees with read_npy");
}

// The shared regions' path (view_npy: an output, or an input at its offset, viewed in place): a
// clear error or a view inside the bytes; one that read_npy also reads is the same tensor.
void check_view(std::span<const std::byte> region, std::optional<core::ElementType> dtype,
                const core::Tensor* read) {
    core::TensorView v;
    try {
        v = io::view_npy(region, dtype, "region");
    } catch (const core::Error&) {
        return;
    }
    if (v.bytes.data() < region.data() ||
        v.bytes.data() + v.bytes.size() > region.data() + region.size())
        fuzz::property_failed("view_npy gave bytes outside the region");
    if (v.bytes.size() !=
        static_cast<std::size_t>(core::element_count(v.shape)) * core::byte_size(v.type))
        fuzz::property_failed("view_npy's bytes do not match its shape");
    if (read &&
        (v.type != read->type || v.shape != read->shape ||
         !std::equal(v.bytes.begin(), v.bytes.end(), read->bytes.begin(), read->bytes.end())))
        fuzz::property_failed("view_npy disagrees with read_npy");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    const std::string path = fuzz::write_input_file("input.npy", in.rest);
    core::Tensor t;
    try {
        t = io::read_npy(path, wanted_type(in.selector));
    } catch (const core::Error&) {
        try {  // the mapped path must end in a clear error or a header, never a crash
            io::parse_npy_header(bytes_of(in.rest), "input.npy");
        } catch (const core::Error&) {
        }
        check_view(bytes_of(in.rest), wanted_type(in.selector), nullptr);
        return 0;  // a clear error is a valid end
    }
    if (t.bytes.size() !=
        static_cast<std::size_t>(core::element_count(t.shape)) * core::byte_size(t.type))
        fuzz::property_failed("the tensor's bytes do not match its shape");
    check_mapped_header(bytes_of(in.rest), t);
    check_view(bytes_of(in.rest), wanted_type(in.selector), &t);
    check_round_trip(t);
    return 0;
}
