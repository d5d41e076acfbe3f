// Expectation files (`PATTERN STATUS[?]` lines), then every pattern matched against case ids.
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "results/expectations.hpp"

namespace {

constexpr const char* kIds[] = {
    "random:onnx.Mul-14:u8:numpy:3",
    "exhaustive16:onnx.Div-14:i16:a=0x8000:b=0xffff",
    "invalid:openvino.Multiply-1:boolean:0",
    "",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = fuzz::write_input_file(
        "expected.txt", std::string_view(reinterpret_cast<const char*>(data), size));
    std::vector<results::Expectation> expectations;
    try {
        expectations = results::read_expectations(path);
    } catch (const core::Error&) {
        return 0;
    }
    for (const results::Expectation& e : expectations) {
        results::is_named(expectations, e.pattern);
        for (const char* id : kIds) {
            results::find_expectation(expectations, id, e.status);
            results::is_named(expectations, id);
        }
    }
    return 0;
}
