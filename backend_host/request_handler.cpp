#include "backend_host/request_handler.hpp"

#include <nlohmann/json.hpp>

#include <vector>

#include "core/op_table.hpp"
#include "io/npy_mapping.hpp"

namespace backend_host {

// The eltwise-backend/1 messages (backends/protocol.hpp) the host reads and writes.
using backends::Answer;
using backends::parse_request;
using backends::Request;
using backends::Response;
using backends::TensorFile;
using backends::to_line;
namespace {

using io::MappedInput;
using io::OutputFile;

// eltwise_backend.h promises plugins at least 256 bytes.
constexpr std::size_t kMessageCapacity = 4096;

Response answer(std::int64_t id, Answer status, std::string message) {
    return Response{id, status, std::nullopt, std::move(message)};
}

eltwise_tensor tensor_view(const TensorFile& file, const MappedInput& mapped) {
    return eltwise_tensor{core::name(file.dtype).data(), static_cast<int>(file.shape.size()),
                          file.shape.data(), mapped.data(), mapped.byte_size()};
}

// Maps the plugin's status and the output's state to the answer.
Response conclude(std::int64_t id, int status, const char* message, OutputFile& out) {
    const std::string plugin_says = *message ? message : "(the plugin gave no message)";
    switch (status) {
        case ELTWISE_OK:
            if (!out.allocated()) {
                out.discard();
                std::string why = "the plugin returned ok without allocating an output";
                if (!out.failure().empty()) why += " (allocate failed: " + out.failure() + ")";
                return answer(id, Answer::error, why);
            }
            out.finish();
            return Response{id, Answer::ok, out.dtype(), "", "", out.in_region()};
        case ELTWISE_REJECTED:
            out.discard();
            return answer(id, Answer::rejected, plugin_says);
        case ELTWISE_UNSUPPORTED:
            out.discard();
            return answer(id, Answer::unsupported, plugin_says);
        case ELTWISE_ERROR:
            out.discard();
            return answer(id, Answer::error, plugin_says);
        default:
            out.discard();
            return answer(id, Answer::error,
                          "the plugin returned unknown status " + std::to_string(status));
    }
}

// The request's out_region, mapped; empty (the output goes to the file) when there is none or
// it cannot be opened from here (PROTOCOL.md section 9, item 17: the file always works).
std::span<std::byte> offered_region(const Request& r, io::RegionMapping& regions) {
    if (!r.out_region) return {};
    try {
        return regions.map(r.out_region->path, r.out_region->bytes);
    } catch (const io::HostError&) {
        return {};
    }
}

// An input from its file, or in place from the input region when the request gives an offset.
MappedInput mapped_input(const TensorFile& t, const char* which, Regions& regions) {
    if (!t.offset) return MappedInput(t.path, t.dtype, t.shape, which);
    return MappedInput(regions.inputs.map(t.path), *t.offset, t.path, t.dtype, t.shape, which);
}

Response call_plugin(const Request& r, const PluginLibrary& plugin, Regions& regions) {
    const MappedInput a = mapped_input(r.a, "a", regions);
    const MappedInput b = mapped_input(r.b, "b", regions);
    std::vector<eltwise_attribute> attributes;
    for (const auto& [name, value] : r.attributes)
        attributes.push_back({name.c_str(), value.c_str()});
    const eltwise_call call{r.id,
                            r.op.c_str(),
                            attributes.size(),
                            attributes.data(),
                            tensor_view(r.a, a),
                            tensor_view(r.b, b)};
    OutputFile out(r.out, offered_region(r, regions.output));
    const eltwise_output output{&OutputFile::allocate, &out};
    char message[kMessageCapacity] = {};
    const int status = plugin.run(call, output, message, sizeof message);
    message[sizeof message - 1] = '\0';
    return conclude(r.id, status, message, out);
}

// The id of a line that is not a valid request, if it is JSON with an integer id.
std::int64_t salvage_id(std::string_view line) {
    const auto j = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_object() && j.contains("id") && j["id"].is_number_integer())
        return j["id"].get<std::int64_t>();
    return -1;
}

}  // namespace

Response serve(const Request& request, const PluginLibrary& plugin, Regions& regions) {
    const core::OpVersion* op = core::find_op_version(request.op);
    if (!op || op->id() != request.op)
        return answer(request.id, Answer::error,
                      "unknown op-version id '" + request.op + "' (see eltwise-validate list)");
    try {
        return call_plugin(request, plugin, regions);
    } catch (const std::exception& e) {
        return answer(request.id, Answer::error, e.what());
    }
}

std::string answer_line(std::string_view request_line, const PluginLibrary& plugin,
                        Regions& regions) {
    Request request;
    try {
        request = parse_request(request_line);
    } catch (const std::exception& e) {  // ProtocolError, or a JSON library error
        return to_line(answer(salvage_id(request_line), Answer::error,
                              std::string("malformed request: ") + e.what()));
    }
    return to_line(serve(request, plugin, regions));
}

}  // namespace backend_host
