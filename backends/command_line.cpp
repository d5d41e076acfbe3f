#include "backends/command_line.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace backends {
namespace {

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}

// The index of the single quote closing the one at `open` (nothing is special inside).
std::size_t closing_single_quote(std::string_view command, std::size_t open) {
    const std::size_t close = command.find('\'', open + 1);
    if (close == std::string_view::npos)
        throw std::invalid_argument("unterminated single quote in command line: " +
                                    std::string(command));
    return close;
}

// Inside double quotes a backslash escapes only these; before anything else it stays literal.
bool escapable_in_double_quotes(char c) {
    return c == '$' || c == '`' || c == '"' || c == '\\' || c == '\n';
}

// Appends the body of the double-quoted string opening at `open`; returns the closing index.
std::size_t double_quoted(std::string_view command, std::size_t open, std::string& word) {
    for (std::size_t i = open + 1; i < command.size(); ++i) {
        const char c = command[i];
        if (c == '"') return i;
        if (c == '\\' && i + 1 < command.size() && escapable_in_double_quotes(command[i + 1])) {
            if (command[++i] != '\n') word += command[i];  // backslash-newline joins lines
        } else {
            word += c;
        }
    }
    throw std::invalid_argument("unterminated double quote in command line: " +
                                std::string(command));
}

}  // namespace

std::string shell_quoted(std::string_view word) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               (c != '\0' && std::strchr("/._-=+,:@%", c) != nullptr);
    });
    if (plain) return std::string(word);
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::vector<std::string> split_command_line(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (is_blank(c)) {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else if (c == '\\' && i + 1 < command.size()) {
            if (command[++i] == '\n') continue;  // a line continuation vanishes entirely
            word += command[i];
            in_word = true;
        } else if (c == '\'') {
            const std::size_t close = closing_single_quote(command, i);
            word.append(command.substr(i + 1, close - i - 1));
            i = close;
            in_word = true;
        } else if (c == '"') {
            i = double_quoted(command, i, word);
            in_word = true;
        } else {
            word += c;  // a trailing lone backslash stays literal, as in sh -c
            in_word = true;
        }
    }
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) throw std::invalid_argument("empty command line");
    return words;
}

}  // namespace backends
