// A backend's profile (backends/PROTOCOL.md section 14): a small human-edited TOML file that
// declares the known non-IEEE behaviours the backend shows, each within a scope and, when the
// behaviour depends on the CPU, a platform condition, and each resting on a finding.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "behaviours/behaviour_model.hpp"
#include "core/broadcast.hpp"
#include "core/element_type.hpp"
#include "core/op_config.hpp"
#include "core/op_table.hpp"
#include "core/tensor.hpp"
#include "platform/host_platform.hpp"
#include "results/case_status.hpp"

namespace profiles {

// Where an entry applies; an empty list means "any". Op versions are globs over the op table's
// ids ("onnx.Div-*"); each must name at least one op version.
struct Scope {
    std::vector<std::string> ops;
    std::vector<core::ElementType> dtypes;
    std::vector<core::BroadcastRule> broadcast;
    std::vector<std::string> graph_forms;
};

// When an entry applies: every feature of `cpu_has` present, every one of `cpu_lacks` absent,
// and the architecture `arch` when given. The GPU keys hold only for a backend whose hello names
// a GPU (platform::GpuFacts): `gpu` names it (GpuFacts::named), `gpu_has` and `gpu_lacks` list
// the API's feature names ("shader-f16").
struct Condition {
    std::vector<std::string> cpu_has, cpu_lacks;
    std::string arch;
    std::string gpu;
    std::vector<std::string> gpu_has, gpu_lacks;
    // "qemu-x86_64", "qemu-aarch64": only under that emulator (its own deviations, docs/findings
    // qemu-*), judged on the run line's platform.emulator.
    std::string emulator;
    bool holds(const platform::Platform& p) const;
};

// What a status-level entry needs of the inputs.
enum class InputsWhen {
    any,
    int_min_by_minus_one,    // some element divides the type's minimum by -1
    zero_divisor,            // some element of B is an integer 0 (also when the output is empty)
    empty_output,            // the output has no elements
    traps_in_i32,            // 32/64-bit integers whose low 32 bits divide INT32_MIN by -1 or by 0
    int32_min_by_minus_one,  // 32/64-bit integers whose low 32 bits divide INT32_MIN by -1
    shape_only,              // (status FAILED only) the output's shape is wrong, nothing else
};

struct Entry {
    std::string name;     // unique in the profile
    std::string finding;  // "docs/findings/openvino-23.md"
    std::string source;   // the file it was read from (an included file's own path)
    int line = 0;         // in the file, for messages
    Scope scope;
    Condition condition;
    // A value entry: the behaviours, together one model.
    std::vector<std::string> behaviours;
    behaviours::Model model;
    // A status entry: the case ends with this status (CRASHED, REJECTED_VALID, ...).
    std::optional<results::Status> status;
    InputsWhen when = InputsWhen::any;
};

struct Profile {
    std::string path;
    std::vector<Entry> entries;
    // Top-level `include`: other profiles (paths relative to this one) whose entries this one
    // shares, e.g. one library's behaviours seen through two front ends. read_profile reads them.
    std::vector<std::string> includes;
};

// Throws core::Error(input) naming the file, the line and what is wrong: TOML syntax, an unknown
// key or behaviour, a scope naming no op version, an unknown type, rule, form or CPU feature, a
// duplicate name or entry, an entry with neither behaviours nor status, or with both, and a key
// cut off from its entry's other keys by a blank or comment line (it reads as the next entry's).
// parse_profile leaves `includes` unread; read_profile appends their entries (an include that
// cannot be read, that includes itself, or whose entry repeats one already read is an error).
Profile parse_profile(std::string_view text, const std::string& source);
Profile read_profile(const std::string& path);

// Whether the entry's scope covers a call of `op` on `dtype` under `rule` in `graph_form`.
bool in_scope(const Entry& e, const core::OpVersion& op, core::ElementType dtype,
              core::BroadcastRule rule, std::string_view graph_form);

// The entries whose condition holds on `p` and whose scope covers the call; value entries only
// where their model changes something for the type and operation.
std::vector<const Entry*> active_entries(const Profile& profile, const platform::Platform& p,
                                         const core::PreparedCall& call,
                                         std::string_view graph_form);

// Whether a status entry's `when` holds for these inputs.
bool inputs_match(InputsWhen when, const core::PreparedCall& call, const core::Tensor& a,
                  const core::Tensor& b);

std::string_view name(InputsWhen when);  // as a profile spells it: "int_min_by_minus_one"

}  // namespace profiles
