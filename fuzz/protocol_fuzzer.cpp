// Backend protocol lines: the hello and the answers a backend sends (the lines the validator
// does not control), and the requests the plugin host reads. Selector % 3 picks the message.
// A line that parses must serialize to a line that parses again.
#include "backends/protocol.hpp"
#include "fuzz/fuzz_input.hpp"

namespace {

template <class Message>
void parse_and_reparse(Message (*parse)(std::string_view), std::string_view line) {
    Message message;
    try {
        message = parse(line);
    } catch (const backends::ProtocolError&) {
        return;
    }
    const std::string again = backends::to_line(message);
    try {
        if (backends::to_line(parse(again)) != again)
            fuzz::property_failed("to_line(parse(to_line(m))) differs from to_line(m)");
    } catch (const backends::ProtocolError& e) {
        fuzz::property_failed(std::string("our own line does not parse: ") + e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Selected in = fuzz::split_selector(data, size);
    switch (in.selector % 3) {
        case 0:
            parse_and_reparse(backends::parse_hello, in.rest);
            break;
        case 1:
            parse_and_reparse(backends::parse_request, in.rest);
            break;
        default:
            parse_and_reparse(backends::parse_response, in.rest);
            break;
    }
    return 0;
}
