// FNV-1a, 64-bit (Fowler, Noll, Vo; draft-eastlake-fnv): a stable, documented hash of bytes with
// no library behind it. Sharding places case ids by it (runner/sharding.cpp), and run lines
// identify the files that judged a run by it (results::AppliedFile). Not a cryptographic hash:
// it tells versions of a file apart, it does not defend against a forged one.
#pragma once

#include <cstdint>
#include <string_view>

namespace core {

constexpr std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325u;  // the offset basis
    for (char c : bytes)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3u;  // the 64-bit FNV prime
    return h;
}

}  // namespace core
