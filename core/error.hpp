// The suite's one exception type: what went wrong, and in which category.
#pragma once

#include <stdexcept>
#include <string>

namespace core {

enum class ErrorKind {
    shape,         // shapes incompatible under the broadcast rule, or an invalid shape
    element_type,  // dtype not allowed, mixed, or boolean
    attribute,     // unknown attribute, bad value, or an attribute the version lacks
    input,         // a file or inline value that cannot be read
};

const char* name(ErrorKind kind);

class Error : public std::runtime_error {
  public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

  private:
    ErrorKind kind_;
};

}  // namespace core
