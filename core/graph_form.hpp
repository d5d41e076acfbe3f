// Graph forms (backends/PROTOCOL.md section 9, item 16): how a backend's graph gets the node's
// inputs, and the case ids that carry the form, `<form>/<runtime id>`.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace core {

// Fed at run time, one or both constants of the graph, or fed at run time into a model that
// declares unknown dimensions.
inline constexpr std::string_view kRuntimeForm = "runtime";
inline constexpr std::string_view kGraphForms[] = {"runtime", "const-a", "const-b", "const-ab",
                                                   "dynamic"};

inline bool is_graph_form(std::string_view name) {
    return std::find(std::begin(kGraphForms), std::end(kGraphForms), name) != std::end(kGraphForms);
}

// The id of the case in the runtime form: `<form>/<id>` without its form, any other id as it is.
inline std::string_view runtime_id(std::string_view id) {
    const std::size_t slash = id.find('/');
    if (slash == std::string_view::npos || !is_graph_form(id.substr(0, slash))) return id;
    return id.substr(slash + 1);
}

}  // namespace core
