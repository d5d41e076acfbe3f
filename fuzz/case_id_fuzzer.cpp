// Case ids as `run --case` reads them: the pairs suffix ("<id>:pairs=FIRST-LAST"), random ids
// and exhaustive16 ids; a parsed id prints back to an id that parses to the same key.
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "case_sources/exhaustive16_cases.hpp"
#include "case_sources/pair_narrowing.hpp"
#include "case_sources/random_cases.hpp"
#include "fuzz/fuzz_input.hpp"

namespace {

void check_ids(std::string_view id) {
    if (const auto pairs = case_sources::parse_pairs_id(id)) {
        const std::string again = case_sources::pairs_case_id(pairs->base, pairs->range);
        const auto reread = case_sources::parse_pairs_id(again);
        if (!reread || reread->base != pairs->base || reread->range.first != pairs->range.first ||
            reread->range.last != pairs->range.last)
            std::abort();
        id = pairs->base;
    }
    if (const auto key = case_sources::parse_random_case_id(id)) {
        const auto reread = case_sources::parse_random_case_id(case_sources::random_case_id(*key));
        if (!reread || reread->combination != key->combination || reread->seed != key->seed ||
            reread->n != key->n || reread->shrink_path != key->shrink_path)
            std::abort();
    }
    if (const auto key = case_sources::parse_exhaustive16_case_id(id)) {
        const auto reread =
            case_sources::parse_exhaustive16_case_id(case_sources::exhaustive16_case_id(*key));
        if (!reread || reread->block.pairs() != key->block.pairs()) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string id(reinterpret_cast<const char*>(data), size);
    try {
        check_ids(id);
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
