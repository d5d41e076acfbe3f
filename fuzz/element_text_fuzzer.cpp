// Element-value text ("0x1p-24", "-nan", "max", "-0x80") of each element type, the selector's.
#include "core/element_text.hpp"
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    core::Tensor t = core::Tensor::zeros(fuzz::element_type_of(in.selector), {});
    try {
        core::parse_element(t, 0, in.rest);
    } catch (const core::Error&) {
        return 0;
    }
    fuzz::check_text_round_trip(t);
    return 0;
}
