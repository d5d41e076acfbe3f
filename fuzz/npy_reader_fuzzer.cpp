// The .npy reader: users' input files and every backend's output file. Selector: 0 reads the
// file as it is, k > 0 asks for the k-th element type (bf16 reads '<u2' bits). A file that
// reads must write back and read again to the same tensor.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "validator/npy_file.hpp"

namespace {

std::optional<core::ElementType> wanted_type(std::uint8_t selector) {
    if (selector % 14 == 0) return std::nullopt;
    return fuzz::element_type_of(static_cast<std::uint8_t>(selector % 14 - 1));
}

void check_round_trip(const core::Tensor& t) {
    const std::string path = fuzz::scratch_dir() + "/round_trip.npy";
    validator::write_npy(path, t, validator::NpyWrite::in_place);
    const core::Tensor back = validator::read_npy(path, t.type);
    if (back.type != t.type || back.shape != t.shape || back.bytes != t.bytes)
        fuzz::property_failed("write_npy then read_npy changed the tensor");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    const std::string path = fuzz::write_input_file("input.npy", in.rest);
    core::Tensor t;
    try {
        t = validator::read_npy(path, wanted_type(in.selector));
    } catch (const core::Error&) {
        return 0;  // a clear error is a valid end
    }
    if (t.bytes.size() !=
        static_cast<std::size_t>(core::element_count(t.shape)) * core::byte_size(t.type))
        fuzz::property_failed("the tensor's bytes do not match its shape");
    check_round_trip(t);
    return 0;
}
