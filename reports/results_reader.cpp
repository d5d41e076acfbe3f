#include "reports/results_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "validator/case_status.hpp"

namespace reports {
namespace {

// The JSON type that each field the reports read must have when it is present; anything else
// would reach the reports as a type they do not expect.
enum class Type { string, count, integer, number, boolean, object, array };

struct Field {
    const char* name;
    Type type;
};

constexpr Field kRunFields[] = {
    {"backend", Type::object}, {"backend_command", Type::string}, {"command_line", Type::string},
    {"started", Type::string}, {"shard", Type::string},           {"label", Type::string},
    {"error", Type::string},   {"policy", Type::object},          {"validator", Type::string}};
constexpr Field kBackendFields[] = {{"name", Type::string},
                                    {"version", Type::string},
                                    {"protocol", Type::string},
                                    {"ops", Type::object}};
constexpr Field kCaseFields[] = {
    {"case", Type::string},       {"op", Type::string},         {"dtype", Type::string},
    {"source", Type::string},     {"status", Type::string},     {"message", Type::string},
    {"replay", Type::string},     {"shrunk", Type::string},     {"dtype_b", Type::string},
    {"categories", Type::object}, {"mismatches", Type::array},  {"minimal", Type::object},
    {"files", Type::array},       {"attributes", Type::object}, {"shapes", Type::array},
    {"seconds", Type::number},    {"valid", Type::boolean},     {"tries", Type::count}};
constexpr Field kMismatchFields[] = {
    {"index", Type::integer},     {"category", Type::string}, {"a", Type::string},
    {"b", Type::string},          {"expected", Type::string}, {"actual", Type::string},
    {"a_bits", Type::string},     {"b_bits", Type::string},   {"expected_bits", Type::string},
    {"actual_bits", Type::string}};

// Counts of elements stay far from overflow when summed over millions of lines.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;

bool has_type(const nlohmann::json& value, Type type) {
    switch (type) {
        case Type::string:
            return value.is_string();
        case Type::count:
            return value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
                   value.get<std::int64_t>() <= kMaxCount;
        case Type::integer:  // a mismatch's index: -1 for a whole-output (shape, dtype) mismatch
            return value.is_number_integer();
        case Type::number:
            return value.is_number();
        case Type::boolean:
            return value.is_boolean();
        case Type::object:
            return value.is_object();
        case Type::array:
            return value.is_array();
    }
    return false;
}

const char* type_name(Type type) {
    constexpr const char* kNames[] = {"a string",      "a count",   "an integer", "a number",
                                      "true or false", "an object", "an array"};
    return kNames[static_cast<int>(type)];
}

template <std::size_t N>
void check_fields(const nlohmann::json& object, const Field (&fields)[N],
                  const std::string& where) {
    for (const Field& f : fields)
        if (object.contains(f.name) && !has_type(object[f.name], f.type))
            throw std::invalid_argument(where + f.name + " is not " + type_name(f.type));
}

void check_each(const nlohmann::json& array, Type type, const std::string& where) {
    for (const nlohmann::json& item : array)
        if (!has_type(item, type))
            throw std::invalid_argument(where + " has an item that is not " + type_name(type));
}

void check_values(const nlohmann::json& object, Type type, const std::string& where) {
    for (const auto& [key, value] : object.items())
        if (!has_type(value, type))
            throw std::invalid_argument(where + "." + key + " is not " + type_name(type));
}

void check_run_line(const nlohmann::json& run) {
    check_fields(run, kRunFields, "run.");
    if (!run.contains("backend")) return;
    const nlohmann::json& backend = run["backend"];
    check_fields(backend, kBackendFields, "run.backend.");
    if (!backend.contains("ops")) return;
    check_values(backend["ops"], Type::array, "run.backend.ops");
    for (const auto& [op, types] : backend["ops"].items())
        check_each(types, Type::string, "run.backend.ops." + op);
}

// A case line, or its "minimal" case (one level down, whose own "minimal" is not read).
void check_case_fields(const nlohmann::json& line, const std::string& where) {
    check_fields(line, kCaseFields, where);
    if (line.contains("categories"))
        check_values(line["categories"], Type::count, where + "categories");
    if (line.contains("attributes"))
        check_values(line["attributes"], Type::string, where + "attributes");
    if (line.contains("files")) check_each(line["files"], Type::string, where + "files");
    if (line.contains("shapes")) {
        check_each(line["shapes"], Type::array, where + "shapes");
        for (const nlohmann::json& shape : line["shapes"])
            check_each(shape, Type::count, where + "shapes");
    }
    if (!line.contains("mismatches")) return;
    check_each(line["mismatches"], Type::object, where + "mismatches");
    for (const nlohmann::json& m : line["mismatches"])
        check_fields(m, kMismatchFields, where + "mismatches[].");
}

void check_case_line(const nlohmann::json& line) {
    for (const char* key : {"case", "op", "dtype", "source", "status"})
        if (!line.contains(key) || !line[key].is_string())
            throw std::invalid_argument(std::string("no string field '") + key + "'");
    if (!validator::parse_status(line["status"].get<std::string>()))
        throw std::invalid_argument("unknown status '" + line["status"].get<std::string>() + "'");
    check_case_fields(line, "");
    if (line.contains("minimal")) check_case_fields(line["minimal"], "minimal.");
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
                check_run_line(line["run"]);
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
