// `eval`: run one op version on given inputs and print or write what the spec says it gives.
#include <iostream>

#include "core/error.hpp"
#include "io/inline_tensor.hpp"
#include "io/json_output.hpp"
#include "io/npy_file.hpp"
#include "reference/run.hpp"
#include "validator/commands.hpp"

namespace validator {
namespace {

constexpr int kRejected = 1;

core::AttributeMap parse_attribute_options(const std::vector<std::string>& items) {
    core::AttributeMap attributes;
    for (const std::string& item : items) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw core::Error(core::ErrorKind::input, "--attr '" + item + "': expected k=v");
        attributes[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return attributes;
}

std::optional<core::ElementType> dtype_option(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    const auto t = core::parse_element_type(*text);
    if (!t)
        throw core::Error(core::ErrorKind::input, "--dtype '" + *text + "' is not an element type");
    return t;
}

void emit(const EvalOptions& options, const core::OpOutput& out) {
    nlohmann::json result = io::tensor_to_json(out.value, out.undefined);
    if (!options.out) {
        std::cout << result.dump(2) << "\n";
        return;
    }
    const std::string& path = *options.out;
    if (path.ends_with(".npy")) {
        io::write_npy(path, out.value);
        result.erase("values");
        result.erase("bits");
        result["written"] = path;
        std::cout << result.dump(2) << "\n";  // still lists the undefined elements
    } else if (path.ends_with(".json")) {
        io::write_text_file(path, result.dump(2) + "\n");
    } else {
        throw core::Error(core::ErrorKind::input,
                          "--out '" + path + "': expected a .npy or .json file");
    }
}

}  // namespace

int run_eval(const EvalOptions& options) {
    const core::OpVersion* op = core::find_op_version(options.op);
    if (!op) {
        std::cerr << "eltwise-validate eval: unknown op version '" << options.op
                  << "' (see `eltwise-validate list`)\n";
        return kUsageError;
    }
    try {
        const core::AttributeMap attributes = parse_attribute_options(options.attributes);
        const auto dtype = dtype_option(options.dtype);
        const core::Tensor a = io::load_input(options.a, dtype);
        const core::Tensor b = io::load_input(options.b, dtype);
        core::OpOutput out;
        try {
            out = reference::run(*op, attributes, a, b);
        } catch (const core::Error& e) {
            std::cerr << "rejected (" << core::name(e.kind()) << " error): " << e.what() << "\n";
            return kRejected;
        }
        emit(options, out);
        return 0;
    } catch (const core::Error& e) {
        std::cerr << "eltwise-validate eval: " << e.what() << "\n";
        return kUsageError;
    }
}

}  // namespace validator
