// The eltwise-validate subcommands. Each returns the process exit code:
// 0 success, 1 a check failed or the op rejected its input, 2 a usage or input error.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace validator {

int run_list(bool as_json);

struct SpecOptions {
    bool list_names = false;         // print case names only (ctest discovery)
    std::vector<std::string> cases;  // empty: all
    bool verbose = false;
};
int run_spec(const SpecOptions& options);

struct EvalOptions {
    std::string op;
    std::vector<std::string> attributes;  // "k=v"
    std::string a, b;                     // .npy paths or inline tensors
    std::optional<std::string> dtype;
    std::optional<std::string> out;  // .npy or .json; stdout (JSON) when absent
};
int run_eval(const EvalOptions& options);

}  // namespace validator
