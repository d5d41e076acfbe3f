// The options of one `run`, parsed once: the backend and its platform, the shard, the graph
// forms, the comparison policy and the filters, each read from the command line's text and
// checked here. Everything downstream takes the typed values and never parses text again, and a
// bad value is a usage error before any file is read or written and before a backend starts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "comparison/output_comparison.hpp"
#include "core/element_type.hpp"
#include "core/op_table.hpp"
#include "runner/backend_choice.hpp"
#include "runner/run_options.hpp"
#include "runner/sharding.hpp"

namespace runner {

struct RunConfig {
    // The options as given: the run line records them (for --resume) and a replay line repeats
    // them. Paths (--profile, --expected, --out) stay paths, read once where they are used.
    RunOptions options;
    BackendChoice backend;       // --backend or --backend-cmd, on --platform
    std::optional<Shard> shard;  // --shard; none: the whole run
    // --graph-forms: known forms, each once, in the order given (plan_run keeps those the
    // backend builds).
    std::vector<std::string> graph_forms;
    comparison::ComparisonPolicy policy;          // --nan, --ulp, --allow-ftz
    bool undefined_refusal_is_deviation = false;  // --undefined-refusal deviation
    std::vector<const core::OpVersion*> ops;      // --op; empty: all
    std::vector<core::ElementType> dtypes;        // --dtype; empty: all
};

// Throws std::invalid_argument naming the option and its bad value.
RunConfig run_config(const RunOptions& o);

}  // namespace runner
