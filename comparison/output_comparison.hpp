// Comparing a backend's output with the expected one, and sorting each mismatching element into
// one category (backends/PROTOCOL.md section 11): the part of a FAILED verdict that says what
// went wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "comparison/category.hpp"
#include "core/op_config.hpp"
#include "core/op_output.hpp"
#include "core/tensor.hpp"

namespace comparison {

// any: every NaN equals every NaN (the specs say "NaN in gives NaN out", no payload);
// strict: NaNs must match bit for bit (payload and sign), the `--nan strict` option.
enum class NanPolicy { any, strict };

// The output of a declared behaviour (a profile entry's model) for this call: a mismatching
// element that equals it bit for bit (any NaN for a NaN under NanPolicy::any) is explained by
// that entry and not counted in a category.
struct DeclaredOutput {
    std::string name;
    core::Tensor output;
};

// The one element comparison, of two elements of type `t` as bit patterns
// (core::element_bits): the same bits, or both NaN under NanPolicy::any. compare_output
// judges each element with it (before the categories); the spec checks and the property tests
// call it.
bool same_element(core::ElementType t, std::uint64_t x, std::uint64_t y,
                  NanPolicy nan = NanPolicy::any);

struct ComparisonPolicy {
    NanPolicy nan = NanPolicy::any;
    // Floats: accept actual within `ulp` ordinals of expected. Never accepts NaN against a number,
    // ±inf against a finite value (even max vs inf, 1 ordinal apart: an overflow is a behaviour
    // of its own, not an inaccuracy), nor a zero of the wrong sign.
    int ulp = 0;
    // Accept flush-to-zero / denormals-are-zero results: actual equals, bit for bit, the op
    // evaluated on inputs whose subnormals became zeros of the same sign, with a subnormal
    // result flushed the same way (a NaN there matches any NaN under NanPolicy::any).
    bool allow_ftz = false;
    std::vector<DeclaredOutput> declared;
};

struct Mismatch {
    std::int64_t index;                   // flat output index; -1 for a shape or dtype mismatch
    Category category = Category::value;  // set by whoever records the mismatch
    // The element's inputs and outputs as core::format_element text. For shape and dtype,
    // expected/actual hold the shapes ("(2,3)") or type names and the rest is empty.
    std::string a, b;
    std::string expected, actual;
    std::string a_bits, b_bits, expected_bits, actual_bits;  // floats only: "0x3c00"
};

struct Comparison {
    CategoryCounts categories;  // mismatching elements per category
    // The first `limit` mismatches and the first 3 of every category, by index.
    std::vector<Mismatch> first;
    std::set<std::string>
        allowances;  // "ulp", "ftz": an element passed only because of that option
    // Mismatching elements that each declared behaviour explains, per DeclaredOutput name (an
    // element several explain counts for each).
    std::map<std::string, std::int64_t> declared;
    bool passed() const { return categories.empty(); }
};

// Compares `actual` with `expected` for one call described by `call` (core::prepare_call: op,
// rounding, broadcast plan); a and b are the call's inputs. Elements listed in
// expected.undefined are never compared. The shape is checked first (Category::shape, count
// 1, no element comparison follows), then the element type (Category::dtype), then every element.
// Throws std::invalid_argument when expected, a or b do not fit `call` (a caller's bug).
// `actual` may be a view of memory another process wrote (compared in place, never copied).
Comparison compare_output(const core::PreparedCall& call, const core::Tensor& a,
                          const core::Tensor& b, const core::OpOutput& expected,
                          const core::TensorView& actual, const ComparisonPolicy& policy,
                          std::size_t limit = 8);

// "nan:2 value:1" (or "passed"), then one line per recorded mismatch, for case messages.
std::string describe(const Comparison& c);

}  // namespace comparison
