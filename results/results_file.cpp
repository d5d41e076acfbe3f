#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "core/op_table.hpp"
#include "results/case_status.hpp"

namespace results {
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
constexpr Field kCaseFields[] = {{"case", Type::string},
                                 {"op", Type::string},
                                 {"dtype", Type::string},
                                 {"source", Type::string},
                                 {"status", Type::string},
                                 {"message", Type::string},
                                 {"replay", Type::string},
                                 {"shrunk", Type::string},
                                 {"dtype_b", Type::string},
                                 {"categories", Type::object},
                                 {"mismatches", Type::array},
                                 {"minimal", Type::object},
                                 {"files", Type::array},
                                 {"attributes", Type::object},
                                 {"shapes", Type::array},
                                 {"seconds", Type::number},
                                 {"valid", Type::boolean},
                                 {"tries", Type::count},
                                 {"undefined_refused", Type::count},
                                 {"graph_form", Type::string}};
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
    if (!parse_status(line["status"].get<std::string>()))
        throw std::invalid_argument("unknown status '" + line["status"].get<std::string>() + "'");
    check_case_fields(line, "");
    if (line.contains("minimal")) check_case_fields(line["minimal"], "minimal.");
}

// A line, checked: a run line ({"run": {...}}) or a case line after it.
nlohmann::json parse_line(const std::string& text, long number, ReadMode mode, bool& seen_run) {
    nlohmann::json line = nlohmann::json::parse(text);
    if (!line.is_object()) throw std::invalid_argument("not a JSON object");
    if (line.contains("run")) {
        if (mode == ReadMode::resume && number != 1)
            throw std::invalid_argument("a second run line");
        if (!line["run"].is_object()) throw std::invalid_argument("run is not an object");
        check_run_line(line["run"]);
        seen_run = true;
    } else {
        if (!seen_run) throw std::invalid_argument("a case line before the run line");
        check_case_line(line);
    }
    return line;
}

std::ifstream open_for_reading(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw core::Error(core::ErrorKind::input,
                          "cannot open " + path + ": " + std::strerror(errno));
    return in;
}

}  // namespace

ResultsFile::ResultsFile(const std::string& path, Mode mode) : path_(path) {
    const int how = mode == Mode::create ? O_CREAT | O_TRUNC : 0;
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | how, 0666);
    if (fd_ < 0)
        throw core::Error(core::ErrorKind::input,
                          "cannot open " + path + ": " + std::strerror(errno));
}

ResultsFile::~ResultsFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ResultsFile::append(const nlohmann::json& line) {
    const std::string text =
        line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw core::Error(core::ErrorKind::input,
                              "cannot write " + path_ + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
}

nlohmann::json read_run_line(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    std::string text;
    const bool complete = std::getline(in, text) && !in.eof();
    const auto fail = [&](const std::string& why) {
        return core::Error(core::ErrorKind::input, path + ":1: " + why);
    };
    if (!complete) throw fail("no complete run line: not the results of a run that started");
    nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
    if (!line.is_object() || !line.contains("run") || !line["run"].is_object())
        throw fail("not a run line ({\"run\": {...}}): not an eltwise-validate results file");
    try {
        check_run_line(line["run"]);
    } catch (const std::exception& e) {
        throw fail(std::string("not a results line (") + e.what() + ")");
    }
    return line["run"];
}

std::uint64_t read_results(const std::string& path, const RunCallback& on_run,
                           const CaseCallback& on_case, ReadMode mode) {
    std::ifstream in = open_for_reading(path);
    std::string text;
    std::uint64_t length = 0;
    bool seen_run = false;
    for (long number = 1; std::getline(in, text); ++number) {
        // A last line without its newline: a run killed while writing it.
        if (in.eof() && mode == ReadMode::resume) break;
        length += text.size() + 1;
        if (text.empty()) continue;
        try {
            const nlohmann::json line = parse_line(text, number, mode, seen_run);
            if (line.contains("run"))
                on_run(line["run"]);
            else
                on_case(line);  // may find a field of a type it cannot use
        } catch (const core::Error&) {
            throw;
        } catch (const std::exception& e) {
            throw core::Error(
                core::ErrorKind::input,
                path + ":" + std::to_string(number) + ": not a results line (" + e.what() + ")");
        }
    }
    if (in.bad())
        throw core::Error(core::ErrorKind::input,
                          "cannot read " + path + ": " + std::strerror(errno));
    return length;
}

std::uint64_t read_case_lines(const std::string& path, const CaseCallback& on_case) {
    return read_results(
        path, [](const nlohmann::json&) {}, on_case, ReadMode::resume);
}

void truncate_results(const std::string& path, std::uint64_t length) {
    if (::truncate(path.c_str(), static_cast<off_t>(length)) != 0)
        throw core::Error(
            core::ErrorKind::input,
            "cannot cut " + path + " back to its complete lines: " + std::strerror(errno));
}

}  // namespace results
