#include "validator/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

}  // namespace

ResultsFile::ResultsFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
    if (fd_ < 0)
        throw core::Error(core::ErrorKind::input,
                          "cannot create " + path + ": " + std::strerror(errno));
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

}  // namespace validator
