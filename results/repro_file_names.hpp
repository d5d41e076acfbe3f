// The names of a deviation's repro files in its directory (README "Comparison"): runner/
// repro_files.cpp writes them, triage/ reads them back.
#pragma once

#include <string_view>

namespace results {

inline constexpr std::string_view kReproA = "a.npy";
inline constexpr std::string_view kReproB = "b.npy";
inline constexpr std::string_view kReproExpected = "expected.npy";  // undefined elements hold 0
inline constexpr std::string_view kReproActual = "actual.npy";      // when the backend answered
// A shrunk case's directory holds the minimal case's files, and the case's own in this folder
// (when small enough): triage judges a behaviour on every deviating element of the case.
inline constexpr std::string_view kReproOriginal = "original";

}  // namespace results
