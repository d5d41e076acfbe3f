// Every (op version, allowed element type, broadcast rule) triple, derived from
// core::op_versions(): the versions, their dtypes and the rules they offer are never listed here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/op_config.hpp"

namespace generators {

struct Combination {
    const core::OpVersion* op;
    core::ElementType type;
    core::BroadcastRule rule;
    std::optional<bool> pythondiv;  // set for versions whose rounding follows m_pythondiv

    // "openvino_Divide_1_i32_pdpd_floor": a valid gtest name.
    std::string name() const;
    bool is_division() const { return op->arithmetic == core::Arithmetic::divide; }
    bool is_integer() const { return core::is_integer(type); }
    // What docs/SEMANTICS.md section 2 says integer division rounds to for this combination.
    core::IntegerRounding expected_rounding() const;
};

// All triples in table order; Divide-1-like versions once per m_pythondiv value.
const std::vector<Combination>& all_combinations();
std::vector<Combination> combinations_where(const std::function<bool(const Combination&)>& keep);

// The attributes that select the combination's rule, with `axis` as pdpd's auto_broadcast_axis
// or legacy's axis (nullopt: not given). With omit_defaults, attributes equal to their default
// are left out, so that the defaults get exercised too.
core::AttributeMap attributes_for(const Combination& c, std::optional<std::int64_t> axis,
                                  bool omit_defaults);

// gtest prints parameters with this (the same text as name()).
void PrintTo(const Combination& c, std::ostream* os);

// gtest's name generator for INSTANTIATE_TEST_SUITE_P.
struct CombinationName {
    template <class ParamInfo>
    std::string operator()(const ParamInfo& info) const {
        return info.param.name();
    }
};

}  // namespace generators
