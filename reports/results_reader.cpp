#include "reports/results_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "validator/case_status.hpp"

namespace reports {
namespace {

void check_case_line(const nlohmann::json& line) {
    for (const char* key : {"case", "op", "dtype", "source", "status"})
        if (!line.contains(key) || !line[key].is_string())
            throw std::invalid_argument(std::string("no string field '") + key + "'");
    if (!validator::parse_status(line["status"].get<std::string>()))
        throw std::invalid_argument("unknown status '" + line["status"].get<std::string>() + "'");
}

}  // namespace

void read_results(const std::string& path,
                  const std::function<void(const nlohmann::json& run)>& on_run,
                  const std::function<void(const nlohmann::json& line)>& on_case) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw core::Error(core::ErrorKind::input,
                          "cannot open results file " + path + ": " + std::strerror(errno));
    std::string text;
    bool seen_run = false;
    for (long number = 1; std::getline(in, text); ++number) {
        const auto where = [&] { return path + ":" + std::to_string(number) + ": "; };
        if (text.empty()) continue;
        nlohmann::json line;
        try {
            line = nlohmann::json::parse(text);
            if (!line.is_object()) throw std::invalid_argument("not a JSON object");
            if (line.contains("run")) {
                if (!line["run"].is_object()) throw std::invalid_argument("run is not an object");
                seen_run = true;
            } else {
                if (!seen_run) throw std::invalid_argument("a case line before the run line");
                check_case_line(line);
            }
        } catch (const std::exception& e) {
            throw core::Error(core::ErrorKind::input,
                              where() + "not a results line (" + e.what() + ")");
        }
        if (line.contains("run"))
            on_run(line["run"]);
        else
            on_case(line);
    }
    if (in.bad())
        throw core::Error(core::ErrorKind::input,
                          "cannot read results file " + path + ": " + std::strerror(errno));
}

}  // namespace reports
