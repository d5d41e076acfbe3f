// Inline tensor text ("f32:2x2:1,2,3,4") from the command line. Selector: 0 gives no default
// type, k > 0 the k-th element type as the default.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "io/inline_tensor.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    std::optional<core::ElementType> default_type;
    if (in.selector % 14 != 0)
        default_type = fuzz::element_type_of(static_cast<std::uint8_t>(in.selector % 14 - 1));
    try {
        const core::Tensor t = io::parse_inline_tensor(in.rest, default_type);
        if (t.bytes.size() !=
            static_cast<std::size_t>(core::element_count(t.shape)) * core::byte_size(t.type))
            fuzz::property_failed("the tensor's bytes do not match its shape");
        fuzz::check_text_round_trip(t);
    } catch (const core::Error&) {
    }
    return 0;
}
