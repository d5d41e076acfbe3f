#include "backends/protocol.hpp"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/op_table.hpp"

namespace backends {
namespace {

using nlohmann::json;

json parse_object(std::string_view line) {
    json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        throw ProtocolError("not a JSON line: " + std::string(line.substr(0, 200)));
    if (!j.is_object())
        throw ProtocolError("not a JSON object: " + std::string(line.substr(0, 200)));
    return j;
}

const json& field(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) throw ProtocolError(std::string("missing field \"") + key + "\"");
    return *it;
}

std::string string_field(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_string()) throw ProtocolError(std::string("field \"") + key + "\" is not a string");
    return v.get<std::string>();
}

std::int64_t id_field(const json& j) {
    const json& v = field(j, "id");
    if (!v.is_number_integer()) throw ProtocolError("field \"id\" is not an integer");
    return v.get<std::int64_t>();
}

core::ElementType type_named(const std::string& text) {
    if (auto t = core::element_type_named(text)) return *t;
    throw ProtocolError("unknown element type \"" + text + "\"");
}

json tensor_json(const TensorFile& t) {
    json j{{"path", t.path}, {"dtype", core::name(t.dtype)}, {"shape", t.shape}};
    if (t.offset) j["offset"] = *t.offset;
    return j;
}

TensorFile tensor_file(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_object()) throw ProtocolError(std::string("field \"") + key + "\" is not an object");
    TensorFile t{string_field(v, "path"), type_named(string_field(v, "dtype")), {}};
    const json& shape = field(v, "shape");
    if (!shape.is_array()) throw ProtocolError(std::string(key) + ".shape is not an array");
    for (const json& d : shape) {
        if (!d.is_number_integer() || d.get<std::int64_t>() < 0)
            throw ProtocolError(std::string(key) + ".shape holds a value that is not a dim");
        t.shape.push_back(d.get<std::int64_t>());
    }
    if (v.contains("offset")) {
        if (!v["offset"].is_number_unsigned())
            throw ProtocolError(std::string(key) + ".offset is not a byte offset");
        t.offset = v["offset"].get<std::uint64_t>();
    }
    return t;
}

bool bool_field(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_boolean()) throw ProtocolError(std::string("field \"") + key + "\" is not a boolean");
    return v.get<bool>();
}

OutRegion out_region(const json& v) {
    if (!v.is_object()) throw ProtocolError("field \"out_region\" is not an object");
    const json& bytes = field(v, "bytes");
    if (!bytes.is_number_unsigned()) throw ProtocolError("out_region.bytes is not a byte count");
    return {string_field(v, "path"), bytes.get<std::uint64_t>()};
}

// The longest compilation a backend may announce: an hour.
constexpr double kMaxLatencySeconds = 3600;

CompileInfo compile_info(const json& v) {
    if (!v.is_object()) throw ProtocolError("field \"compile\" is not an object");
    CompileInfo c;
    for (auto [key, text] : {std::pair{"compiler", &c.compiler}, std::pair{"target", &c.target},
                             std::pair{"shapes", &c.shapes}})
        if (v.contains(key)) *text = string_field(v, key);
    if (v.contains("latency_seconds")) {
        const json& l = v["latency_seconds"];
        if (!l.is_number() || !(l.get<double>() >= 0 && l.get<double>() <= kMaxLatencySeconds))
            throw ProtocolError("compile.latency_seconds is not a number of seconds in [0, 3600]");
        c.latency_seconds = l.get<double>();
    }
    return c;
}

json compile_json(const CompileInfo& c) {
    json j{{"latency_seconds", c.latency_seconds}};
    for (auto [key, text] : {std::pair{"compiler", &c.compiler}, std::pair{"target", &c.target},
                             std::pair{"shapes", &c.shapes}})
        if (!text->empty()) j[key] = *text;
    return j;
}

// The hello's "gpu" object (PROTOCOL.md section 9, item 20): `api` names the GPU API; the
// identity strings, `fallback` and the feature names are optional.
platform::GpuFacts gpu_facts(const json& v) {
    if (!v.is_object()) throw ProtocolError("field \"gpu\" is not an object");
    platform::GpuFacts g;
    g.api = string_field(v, "api");
    if (g.api.empty()) throw ProtocolError("gpu.api is empty");
    for (auto [key, text] :
         {std::pair{"vendor", &g.vendor}, std::pair{"architecture", &g.architecture},
          std::pair{"device", &g.device}, std::pair{"description", &g.description}})
        if (v.contains(key)) *text = string_field(v, key);
    if (v.contains("fallback")) g.fallback = bool_field(v, "fallback");
    if (v.contains("features")) {
        const json& features = v["features"];
        if (!features.is_array()) throw ProtocolError("gpu.features is not an array");
        for (const json& f : features) {
            if (!f.is_string()) throw ProtocolError("gpu.features holds a non-string");
            g.features.push_back(f.get<std::string>());
        }
        std::sort(g.features.begin(), g.features.end());
    }
    return g;
}

json gpu_json(const platform::GpuFacts& g) {
    json j{{"api", g.api}, {"fallback", g.fallback}, {"features", g.features}};
    for (auto [key, text] :
         {std::pair{"vendor", &g.vendor}, std::pair{"architecture", &g.architecture},
          std::pair{"device", &g.device}, std::pair{"description", &g.description}})
        if (!text->empty()) j[key] = *text;
    return j;
}

constexpr Answer kAnswers[] = {Answer::ok, Answer::rejected, Answer::unsupported, Answer::error};

}  // namespace

bool Hello::claims(std::string_view op_id) const {
    return ops.find(std::string(op_id)) != ops.end();
}

bool Hello::claims(std::string_view op_id, core::ElementType t) const {
    const auto it = ops.find(std::string(op_id));
    return it != ops.end() &&
           std::find(it->second.begin(), it->second.end(), t) != it->second.end();
}

std::string_view name(Answer a) {
    switch (a) {
        case Answer::ok:
            return "ok";
        case Answer::rejected:
            return "rejected";
        case Answer::unsupported:
            return "unsupported";
        case Answer::error:
            return "error";
    }
    return "?";
}

namespace {

// A hello's graph_forms: known form names, each once.
std::vector<std::string> graph_forms_field(const json& forms) {
    if (!forms.is_array()) throw ProtocolError("field \"graph_forms\" is not an array");
    std::vector<std::string> out;
    for (const json& f : forms) {
        if (!f.is_string() || !is_graph_form(f.get<std::string>()))
            throw ProtocolError("graph_forms: unknown form " + f.dump() +
                                " (runtime, const-a, const-b, const-ab, dynamic)");
        if (std::find(out.begin(), out.end(), f.get<std::string>()) == out.end())
            out.push_back(f.get<std::string>());
    }
    return out;
}

}  // namespace

std::string to_line(const Hello& h) {
    json ops = json::object();
    for (const auto& [op, types] : h.ops) {
        json names = json::array();
        for (core::ElementType t : types)
            names.push_back(core::name(t));
        ops[op] = names;
    }
    json j{{"protocol", kProtocolName}, {"name", h.name}, {"version", h.version}, {"ops", ops}};
    if (!h.graph_forms.empty()) j["graph_forms"] = h.graph_forms;
    if (h.output_region) j["output_region"] = true;
    if (h.input_region) j["input_region"] = true;
    if (h.compile) j["compile"] = compile_json(*h.compile);
    if (h.gpu.present()) j["gpu"] = gpu_json(h.gpu);
    if (!h.build.empty()) j["build"] = h.build;
    return j.dump();
}

std::string to_line(const Request& r) {
    json j{{"id", r.id},
           {"op", r.op},
           {"attributes", r.attributes},
           {"a", tensor_json(r.a)},
           {"b", tensor_json(r.b)},
           {"out", r.out}};
    if (!r.graph_form.empty() && r.graph_form != kRuntimeForm) j["graph_form"] = r.graph_form;
    if (r.out_region)
        j["out_region"] = {{"path", r.out_region->path}, {"bytes", r.out_region->bytes}};
    return j.dump();
}

std::string to_line(const Response& r) {
    json j{{"id", r.id}, {"status", name(r.status)}};
    if (r.dtype) j["dtype"] = core::name(*r.dtype);
    if (!r.message.empty()) j["message"] = r.message;
    if (!r.reason.empty()) j["reason"] = r.reason;
    if (r.in_region) j["in_region"] = true;
    if (r.compilations > 0) j["compilations"] = r.compilations;
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string rejection_reason(core::ErrorKind kind) {
    switch (kind) {
        case core::ErrorKind::shape:
            return "shape";
        case core::ErrorKind::element_type:
            return "type";
        case core::ErrorKind::attribute:
            return "attribute";
        case core::ErrorKind::input:
            return "other";
    }
    return "other";
}

bool Hello::builds(std::string_view graph_form) const {
    return graph_form == kRuntimeForm ||
           std::find(graph_forms.begin(), graph_forms.end(), graph_form) != graph_forms.end();
}

Hello parse_hello(std::string_view line) {
    const json j = parse_object(line);
    const std::string protocol = string_field(j, "protocol");
    if (protocol != kProtocolName)
        throw ProtocolError("protocol \"" + protocol + "\" is not " + std::string(kProtocolName));
    Hello h{string_field(j, "name"), j.contains("version") ? string_field(j, "version") : "", {}};
    const json& ops = field(j, "ops");
    if (!ops.is_object()) throw ProtocolError("field \"ops\" is not an object");
    for (const auto& [op, types] : ops.items()) {
        if (!core::find_op_version(op) || core::find_op_version(op)->id() != op)
            throw ProtocolError("ops: unknown op-version id \"" + op +
                                "\" (see eltwise-validate list)");
        if (!types.is_array()) throw ProtocolError("ops[\"" + op + "\"] is not an array");
        auto& list = h.ops[op];
        for (const json& t : types) {
            if (!t.is_string()) throw ProtocolError("ops[\"" + op + "\"] holds a non-string");
            list.push_back(type_named(t.get<std::string>()));
        }
    }
    if (j.contains("graph_forms")) h.graph_forms = graph_forms_field(j["graph_forms"]);
    if (j.contains("output_region")) h.output_region = bool_field(j, "output_region");
    if (j.contains("input_region")) h.input_region = bool_field(j, "input_region");
    if (j.contains("compile")) h.compile = compile_info(j["compile"]);
    if (j.contains("gpu")) h.gpu = gpu_facts(j["gpu"]);
    if (j.contains("build")) h.build = string_field(j, "build");
    return h;
}

Request parse_request(std::string_view line) {
    const json j = parse_object(line);
    Request r;
    r.id = id_field(j);
    r.op = string_field(j, "op");
    if (j.contains("attributes")) {
        const json& attributes = j["attributes"];
        if (!attributes.is_object()) throw ProtocolError("field \"attributes\" is not an object");
        for (const auto& [key, value] : attributes.items()) {
            if (!value.is_string())
                throw ProtocolError("attribute \"" + key + "\" is not given as text");
            r.attributes[key] = value.get<std::string>();
        }
    }
    r.a = tensor_file(j, "a");
    r.b = tensor_file(j, "b");
    r.out = string_field(j, "out");
    if (j.contains("graph_form")) {
        r.graph_form = string_field(j, "graph_form");
        if (!is_graph_form(r.graph_form))
            throw ProtocolError("unknown graph_form \"" + r.graph_form + "\"");
    }
    if (j.contains("out_region")) r.out_region = out_region(j["out_region"]);
    return r;
}

Response parse_response(std::string_view line) {
    const json j = parse_object(line);
    Response r;
    r.id = id_field(j);
    const std::string status = string_field(j, "status");
    const auto* it = std::find_if(std::begin(kAnswers), std::end(kAnswers),
                                  [&](Answer a) { return name(a) == status; });
    if (it == std::end(kAnswers)) throw ProtocolError("unknown status \"" + status + "\"");
    r.status = *it;
    if (j.contains("dtype")) r.dtype = type_named(string_field(j, "dtype"));
    if (j.contains("message")) {
        const json& m = j["message"];
        r.message = m.is_string() ? m.get<std::string>() : m.dump();
    }
    if (j.contains("reason")) {
        r.reason = string_field(j, "reason");
        if (std::find(std::begin(kRejectionReasons), std::end(kRejectionReasons), r.reason) ==
            std::end(kRejectionReasons))
            throw ProtocolError("unknown rejection reason \"" + r.reason +
                                "\" (shape, type, attribute or other)");
        if (r.status != Answer::rejected)
            throw ProtocolError("a reason comes with status \"rejected\" only");
    }
    if (j.contains("in_region")) r.in_region = bool_field(j, "in_region");
    if (r.in_region && r.status != Answer::ok)
        throw ProtocolError("in_region comes with status \"ok\" only");
    if (j.contains("compilations")) {
        const json& n = j["compilations"];
        if (!n.is_number_unsigned()) throw ProtocolError("compilations is not a count");
        r.compilations = static_cast<std::int64_t>(
            std::min<std::uint64_t>(n.get<std::uint64_t>(), std::uint64_t{1} << 40));
    }
    return r;
}

}  // namespace backends
