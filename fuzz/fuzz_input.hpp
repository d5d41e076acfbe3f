// What every fuzz target shares: the selector byte that some inputs start with, and scratch
// files for the parsers that read a path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/element_type.hpp"
#include "core/tensor.hpp"

namespace fuzz {

// Inputs of targets that need a choice (which type, which message) start with one byte.
struct Selected {
    std::uint8_t selector = 0;
    std::string_view rest;
};
Selected split_selector(const std::uint8_t* data, std::size_t size);

core::ElementType element_type_of(std::uint8_t selector);  // every type, boolean included

// A directory private to this process (under $TMPDIR, else /dev/shm or /tmp), created once.
const std::string& scratch_dir();

// Writes the bytes to scratch_dir()/name, replacing it, and returns the path.
std::string write_input_file(std::string_view name, std::string_view bytes);

// Every element formats to text that parses back to the same bits (a NaN: to a NaN of the
// same sign, since the text drops the payload).
void check_text_round_trip(const core::Tensor& t);

// Stops the process as a crash the fuzzer reports: for a property that does not hold.
[[noreturn]] void property_failed(const std::string& what);

}  // namespace fuzz
