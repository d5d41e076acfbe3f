// Test support: small results.jsonl files written by hand, line by line.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/tests/scratch_dir.hpp"

namespace reports::testing {

// The run line of a backend with this hello name and version, claiming `ops`.
inline nlohmann::json run_line(const std::string& name, const std::string& version,
                               nlohmann::json ops = nlohmann::json::object()) {
    return {{"run",
             {{"backend", {{"name", name}, {"version", version}, {"ops", ops}}},
              {"command_line", "eltwise-validate run --backend " + name},
              {"seed", 7},
              {"started", "2026-11-23T10:00:00Z"},
              {"policy", {{"nan", "any"}, {"ulp", 0}, {"allow_ftz", false}}}}}};
}

inline nlohmann::json case_line(const std::string& id, const std::string& op,
                                const std::string& dtype, const std::string& status,
                                const std::string& source = "random") {
    return {{"case", id},
            {"source", source},
            {"op", op},
            {"dtype", dtype},
            {"status", status},
            {"shapes", {{2}, {2}}},
            {"attributes", nlohmann::json::object()},
            {"valid", true},
            {"seconds", 0.5}};
}

inline std::string write_results(const io::testing::ScratchDir& dir, const std::string& name,
                                 const std::vector<nlohmann::json>& lines) {
    const std::string path = dir.file(name);
    std::ofstream out(path);
    for (const nlohmann::json& line : lines)
        out << line.dump() << "\n";
    return path;
}

}  // namespace reports::testing
