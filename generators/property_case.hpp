// One generated call of an op version: the combination, shapes, attributes and input tensors,
// printed by RapidCheck as a case descriptor plus every input element.
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>

#include "core/case_record.hpp"
#include "core/tensor.hpp"
#include "generators/op_combinations.hpp"
#include "generators/shape_generators.hpp"

namespace generators {

// A case record (op, attributes, A, B) and how it was generated.
struct Case : core::CaseRecord {
    Combination combination;
    ShapeCase shapes;
};

Case make_case(const Combination& c, const ShapeCase& s, core::AttributeMap attributes,
               core::Tensor a, core::Tensor b);

// "openvino.Divide-1:i32:(2,3):(3):auto_broadcast=pdpd:auto_broadcast_axis=1:m_pythondiv=true"
std::string descriptor(const Case& c);

// "[1, -0, nan, ...]": every element in the suite's text form.
std::string elements_text(const core::Tensor& t);

// RapidCheck prints counterexamples with this.
void showValue(const Case& c, std::ostream& os);

// A call of the combination with shapes from `shapes` and values from value_generators.
rc::Gen<Case> case_of(const Combination& c, rc::Gen<ShapeCase> shapes);

// A call whose inputs are all zeros: for properties where the values cannot matter (rejections),
// so that no time goes into generating them.
rc::Gen<Case> zero_valued_case(const Combination& c, rc::Gen<ShapeCase> shapes);

// A call with shapes valid under the combination's rule.
rc::Gen<Case> valid_case(const Combination& c);

}  // namespace generators
