// eltwise-validate: what the specs say Mul and Div must give, and whether implementations agree.
#include <CLI/CLI.hpp>
#include <iostream>

#include "validator/commands.hpp"

namespace {

constexpr int kUsageError = 2;

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"eltwise-validate: conformance checks for element-wise Mul and Div op versions"};
    app.require_subcommand(1);

    bool list_json = false;
    auto* list = app.add_subcommand("list", "Print the op-version table");
    list->add_flag("--json", list_json, "Print the table as JSON");

    validator::SpecOptions spec_options;
    auto* spec = app.add_subcommand("spec", "Run the spec cases through the reference");
    spec->add_flag("--list", spec_options.list_names, "Print the case names and exit");
    spec->add_option("--case", spec_options.cases, "Run only this case (repeatable)");
    spec->add_flag("-v,--verbose", spec_options.verbose, "Print every case, not only failures");

    validator::EvalOptions eval_options;
    auto* eval = app.add_subcommand("eval", "Evaluate one op version on given inputs");
    eval->add_option("--op", eval_options.op, "Op version id, e.g. onnx.Div-14 (see `list`)")
        ->required();
    eval->add_option("--attr", eval_options.attributes, "Attribute k=v (repeatable)");
    eval->add_option("--a", eval_options.a, "Input A: a .npy file or DTYPE:SHAPE:VALUES")
        ->required();
    eval->add_option("--b", eval_options.b, "Input B: a .npy file or DTYPE:SHAPE:VALUES")
        ->required();
    eval->add_option("--dtype", eval_options.dtype,
                     "Element type where the input cannot say it (bf16 .npy files, inline values)");
    eval->add_option("--out", eval_options.out, "Write the result to a .npy or .json file");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);  // prints help, or the message and usage
        return code == 0 ? 0 : kUsageError;
    }
    try {
        if (*list) return validator::run_list(list_json);
        if (*spec) return validator::run_spec(spec_options);
        return validator::run_eval(eval_options);
    } catch (const std::exception& e) {
        std::cerr << "eltwise-validate: " << e.what() << "\n";
        return kUsageError;
    }
}
