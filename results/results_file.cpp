#include "results/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <variant>

#include "core/error.hpp"

namespace results {
namespace {

// A line, checked: a run line or a case line after it.
std::variant<RunLine, CaseLine> parse_line(const std::string& text, long number, ReadMode mode,
                                           bool& seen_run) {
    const nlohmann::json line = nlohmann::json::parse(text);
    if (!line.is_object()) throw std::invalid_argument("not a JSON object");
    if (is_run_line(line)) {
        if (mode == ReadMode::resume && number != 1)
            throw std::invalid_argument("a second run line");
        seen_run = true;
        return run_line_from_json(line);
    }
    if (!seen_run) throw std::invalid_argument("a case line before the run line");
    return case_line_from_json(line);
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

void ResultsFile::append(const RunLine& line) {
    append_json(line_json(line));
}

void ResultsFile::append(const CaseLine& line) {
    append_json(to_json(line));
}

void ResultsFile::append_json(const nlohmann::json& line) {
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

RunLine read_run_line(const std::string& path) {
    std::ifstream in = open_for_reading(path);
    std::string text;
    const bool complete = std::getline(in, text) && !in.eof();
    const auto fail = [&](const std::string& why) {
        return core::Error(core::ErrorKind::input, path + ":1: " + why);
    };
    if (!complete) throw fail("no complete run line: not the results of a run that started");
    const nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
    if (!is_run_line(line))
        throw fail("not a run line ({\"run\": {...}}): not an eltwise-validate results file");
    try {
        return run_line_from_json(line);
    } catch (const std::exception& e) {
        throw fail(std::string("not a results line (") + e.what() + ")");
    }
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
            auto line = parse_line(text, number, mode, seen_run);
            if (auto* run = std::get_if<RunLine>(&line))
                on_run(*run);
            else
                on_case(std::get<CaseLine>(line));
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
        path, [](const RunLine&) {}, on_case, ReadMode::resume);
}

void truncate_results(const std::string& path, std::uint64_t length) {
    if (::truncate(path.c_str(), static_cast<off_t>(length)) != 0)
        throw core::Error(
            core::ErrorKind::input,
            "cannot cut " + path + " back to its complete lines: " + std::strerror(errno));
}

}  // namespace results
