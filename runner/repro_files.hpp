// The files that let anyone reproduce a failing case without this tool: the inputs, the
// expected and the actual output as .npy, and for ONNX op versions an ONNX node-test directory.
#pragma once

#include <string>
#include <vector>

#include "core/case_record.hpp"
#include "core/op_config.hpp"
#include "judging/case_result.hpp"

namespace runner {

// "cases/random_onnx.Mul-14_u8_..." below the output directory: the id with every character
// other than [A-Za-z0-9._=-] replaced, shortened, plus a hash of the full id.
std::string repro_dir_name(const std::string& case_id);

// Writes into `dir` (created): a.npy, b.npy, expected.npy (valid cases; undefined elements hold
// 0), actual.npy (when the backend gave an output), and onnx/ (model.onnx + test_data_set_0)
// for valid cases of ONNX op versions. Returns the paths written. Throws core::Error(input).
std::vector<std::string> save_repro(const std::string& dir, const core::OpVersion& op,
                                    const core::CaseRecord& data,
                                    const judging::CaseResult& result);

}  // namespace runner
