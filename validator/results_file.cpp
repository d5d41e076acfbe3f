#include "validator/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "core/op_table.hpp"

namespace validator {
namespace {

nlohmann::json mismatch_json(const Mismatch& m) {
    nlohmann::json j = {{"index", m.index}, {"category", m.category}, {"a", m.a},
                        {"b", m.b},         {"expected", m.expected}, {"actual", m.actual}};
    if (!m.expected_bits.empty()) {
        j["a_bits"] = m.a_bits;
        j["b_bits"] = m.b_bits;
        j["expected_bits"] = m.expected_bits;
        j["actual_bits"] = m.actual_bits;
    }
    return j;
}

// What a result adds to a line: categories, message, mismatches, options that let it pass.
void add_result(nlohmann::json& j, const CaseResult& result) {
    if (!result.categories.empty()) j["categories"] = result.categories;
    if (!result.message.empty()) j["message"] = result.message;
    if (!result.mismatches.empty()) {
        j["mismatches"] = nlohmann::json::array();
        for (const Mismatch& m : result.mismatches)
            j["mismatches"].push_back(mismatch_json(m));
    }
    if (!result.allowances.empty()) j["allowed_by"] = result.allowances;
}

nlohmann::json minimal_json(const ShrinkOutcome& m) {
    nlohmann::json j = {{"case", m.id},
                        {"shapes", {m.data.a.shape, m.data.b.shape}},
                        {"attributes", m.data.attributes},
                        {"status", name(m.result.status)},
                        {"tries", m.tries}};
    add_result(j, m.result);
    return j;
}

template <class T>
T field(const nlohmann::json& j, const char* key) {
    return j.at(key).get<T>();
}

std::optional<std::string> optional_text(const nlohmann::json& j, const char* key) {
    if (j.at(key).is_null()) return std::nullopt;
    return j.at(key).get<std::string>();
}

void check_case_line(const nlohmann::json& line) {
    if (!line.is_object()) throw std::invalid_argument("not a JSON object");
    if (line.contains("run")) throw std::invalid_argument("a second run line");
    for (const char* key : {"case", "op", "dtype", "source", "status"})
        if (!line.contains(key) || !line[key].is_string())
            throw std::invalid_argument(std::string("no string field '") + key + "'");
    if (!parse_status(line["status"].get<std::string>()))
        throw std::invalid_argument("unknown status '" + line["status"].get<std::string>() + "'");
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

nlohmann::json case_line(const CaseRecord& r) {
    const PlannedCase& p = *r.planned;
    const CaseResult& result = *r.result;
    nlohmann::json j = {{"case", p.id},
                        {"source", p.source},
                        {"op", p.op ? p.op->id() : ""},
                        {"dtype", core::name(p.dtype)},
                        {"shapes", nlohmann::json::array()},
                        {"attributes", nlohmann::json::object()},
                        {"valid", r.data ? r.data->valid : p.valid},
                        {"status", name(result.status)},
                        {"seconds", result.seconds}};
    if (r.data) {
        j["shapes"] = {r.data->a.shape, r.data->b.shape};
        j["attributes"] = r.data->attributes;
        if (r.data->b.type != r.data->a.type) j["dtype_b"] = core::name(r.data->b.type);
        if (!r.data->note.empty()) j["note"] = r.data->note;
    }
    add_result(j, result);
    if (r.minimal) {
        j["shrunk"] = r.minimal->id;
        j["minimal"] = minimal_json(*r.minimal);
    }
    if (!r.files.empty()) j["files"] = r.files;
    return j;
}

nlohmann::json options_json(const RunOptions& o) {
    return {
        {"backend", o.backend},
        {"backend_cmd", o.backend_cmd},
        {"cases", o.cases},
        {"ops", o.ops},
        {"dtypes", o.dtypes},
        {"sources", o.sources},
        {"case_ids", o.case_ids},
        {"onnx_dirs", o.onnx_dirs},
        {"shard", o.shard},
        {"seed", o.seed},
        {"count", o.count},
        {"shrink_budget", o.shrink_budget},
        {"timeout_seconds", o.timeout_seconds},
        {"nan", o.nan},
        {"ulp", o.ulp},
        {"allow_ftz", o.allow_ftz},
        {"expected", o.expected ? nlohmann::json(*o.expected) : nlohmann::json()},
        {"write_expected", o.write_expected ? nlohmann::json(*o.write_expected) : nlohmann::json()},
        {"label", o.label}};
}

RunOptions options_from_json(const nlohmann::json& j) {
    using Texts = std::vector<std::string>;
    try {
        RunOptions o;
        o.backend = field<std::string>(j, "backend");
        o.backend_cmd = field<std::string>(j, "backend_cmd");
        o.cases = field<Texts>(j, "cases");
        o.ops = field<Texts>(j, "ops");
        o.dtypes = field<Texts>(j, "dtypes");
        o.sources = field<Texts>(j, "sources");
        o.case_ids = field<Texts>(j, "case_ids");
        o.onnx_dirs = field<Texts>(j, "onnx_dirs");
        o.shard = field<std::string>(j, "shard");
        o.seed = field<std::uint64_t>(j, "seed");
        o.count = field<int>(j, "count");
        o.shrink_budget = field<int>(j, "shrink_budget");
        o.timeout_seconds = field<double>(j, "timeout_seconds");
        o.nan = field<std::string>(j, "nan");
        o.ulp = field<int>(j, "ulp");
        o.allow_ftz = field<bool>(j, "allow_ftz");
        o.expected = optional_text(j, "expected");
        o.write_expected = optional_text(j, "write_expected");
        o.label = field<std::string>(j, "label");
        return o;
    } catch (const nlohmann::json::exception& e) {
        throw core::Error(core::ErrorKind::input,
                          std::string("the run line's options are unreadable: ") + e.what());
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
    return line["run"];
}

std::uint64_t read_case_lines(const std::string& path,
                              const std::function<void(const nlohmann::json&)>& on_case) {
    std::ifstream in = open_for_reading(path);
    std::string text;
    std::uint64_t length = 0;
    for (long number = 1; std::getline(in, text) && !in.eof(); ++number) {
        length += text.size() + 1;
        if (number == 1 || text.empty()) continue;  // the run line, read by read_run_line
        try {
            const nlohmann::json line = nlohmann::json::parse(text);
            check_case_line(line);
            on_case(line);  // may find a field of the wrong type
        } catch (const std::exception& e) {
            throw core::Error(core::ErrorKind::input, path + ":" + std::to_string(number) +
                                                          ": not a case line (" + e.what() + ")");
        }
    }
    if (in.bad())
        throw core::Error(core::ErrorKind::input,
                          "cannot read " + path + ": " + std::strerror(errno));
    return length;
}

void truncate_results(const std::string& path, std::uint64_t length) {
    if (::truncate(path.c_str(), static_cast<off_t>(length)) != 0)
        throw core::Error(
            core::ErrorKind::input,
            "cannot cut " + path + " back to its complete lines: " + std::strerror(errno));
}

}  // namespace validator
