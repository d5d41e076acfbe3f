#include <stdexcept>

#include "backends/backend.hpp"
#include "core/error.hpp"
#include "core/op_table.hpp"
#include "optimized/run.hpp"
#include "reference/run.hpp"

namespace backends {
namespace {

using Evaluate = core::OpOutput (*)(const core::OpVersion&, const core::AttributeMap&,
                                    const core::Tensor&, const core::Tensor&);

core::OpOutput run_optimized(const core::OpVersion& op, const core::AttributeMap& attributes,
                             const core::Tensor& a, const core::Tensor& b) {
    return optimized::run(op, attributes, a, b);
}

// Claims exactly what the op-version table allows.
Hello table_hello(std::string_view name) {
    Hello h{std::string(name), "builtin", {}};
    for (const core::OpVersion& op : core::op_versions())
        h.ops[op.id()] = op.element_types;
    return h;
}

class BuiltinBackend : public Backend {
  public:
    BuiltinBackend(std::string_view name, Evaluate evaluate)
        : hello_(table_hello(name)), evaluate_(evaluate) {}
    const Hello& hello() const override { return hello_; }
    Result run(const Call& call) override {
        try {
            core::OpOutput out = evaluate_(*call.op, call.attributes, *call.a, *call.b);
            return {Outcome::ok, std::move(out.value), ""};
        } catch (const core::Error& e) {
            return {Outcome::rejected, {}, e.what(), rejection_reason(e.kind())};
        } catch (const std::exception& e) {
            return {Outcome::error, {}, e.what()};
        }
    }

  private:
    Hello hello_;
    Evaluate evaluate_;
};

}  // namespace

std::string_view name(Outcome o) {
    switch (o) {
        case Outcome::ok:
            return "ok";
        case Outcome::rejected:
            return "rejected";
        case Outcome::unsupported:
            return "unsupported";
        case Outcome::error:
            return "error";
        case Outcome::crashed:
            return "crashed";
        case Outcome::hung:
            return "hung";
        case Outcome::protocol_error:
            return "protocol_error";
    }
    return "?";
}

std::vector<std::string_view> builtin_backend_names() {
    return {"reference", "optimized"};
}

std::unique_ptr<Backend> make_builtin_backend(std::string_view name) {
    if (name == "reference") return std::make_unique<BuiltinBackend>(name, &reference::run);
    if (name == "optimized") return std::make_unique<BuiltinBackend>(name, &run_optimized);
    return nullptr;
}

}  // namespace backends
