// Executable models of known non-IEEE behaviour (backends/PROTOCOL.md section 14): each named
// behaviour is the reference with one change, computed exactly, never a tolerance. A profile
// entry declares one or more of them; together they make one Model, whose output a deviating
// element must equal bit for bit to count as declared.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/op_config.hpp"
#include "core/tensor.hpp"

namespace behaviours {

struct Model {
    // inputs
    // ONNX-1/6 `broadcast=1` (and `axis`) ignored, numpy's rule used: other shapes and values.
    bool legacy_broadcast_read_as_numpy = false;
    // OpenVINO's Python API: pdpd without `auto_broadcast_axis` gets axis 0, not -1.
    bool pdpd_axis_unset_read_as_zero = false;
    // pdpd's `auto_broadcast_axis` ignored: B aligned with A's trailing dimensions (axis -1), as
    // OpenVINO's ARM Reference node does for i64/u64/u32 Divide.
    bool pdpd_axis_ignored = false;
    bool subnormal_inputs_zero = false;  // DAZ: a subnormal operand reads as the zero of its sign
    // Operands that are constants of the graph (the case's graph form): subnormals and -0.0
    // become +0.0 (OpenVINO copying constants), and i64/u64/u32 values are clamped to i32's
    // range (OpenVINO narrowing constants with saturation).
    bool constant_subnormals_and_negative_zero_lost = false;
    bool wide_constants_saturated_to_i32 = false;
    // f32/f64 constants beyond bf16's largest finite value (3.3895314e38), infinities
    // included, become it: OpenVINO's default bf16 inference precision clamping constants.
    bool constants_clamped_to_bf16_range = false;
    // Both operands constant, the node is folded and its result is a constant too: it goes
    // through the same constant transforms as the operands.
    bool folded_result_is_constant = false;
    // The exact integer result clamped into i32's range (OpenVINO folding i64/u64/u32 nodes).
    bool results_saturated_to_i32 = false;
    // Set by the model itself (no name): B is a constant and folded values are constants.
    bool reciprocal_is_constant = false;
    // computation
    bool computed_in_f32 = false;           // f64: operands rounded to f32, computed in f32
    bool computed_in_f16 = false;           // f32: operands and result rounded to f16 precision
    bool computed_in_bf16 = false;          // f32: the same in bf16
    bool computed_in_i32 = false;           // i64/u64/u32: operands wrapped to i32, result widened
    bool integer_division_via_f32 = false;  // operands to f32, quotient rounded per the op
    // i64 truncating division: the exact quotient rounded to nearest f64 and converted back as
    // cvttsd2si does, INT64_MIN at 2^63 (ExecuTorch's portable div in trunc mode). Narrower
    // types' quotients are exact in f64: it changes nothing there, nor in floor division.
    bool truncated_quotient_through_f64 = false;
    // The same for products: the f32 product (rounded to nearest even) converted as cvttps2dq
    // does, INT32_MIN outside i32 (MNN's x86 i32 multiply).
    bool integer_multiplication_via_f32 = false;
    // With either of the two above: the f32 result converted as JavaScript's ToInt32 does
    // (TF.js reading an int32 tensor back from a float texture): truncated, then modulo 2^32,
    // NaN and ±inf 0, where cvttps2dq gives INT32_MIN outside i32. Changes nothing alone.
    bool f32_to_integer_wraps = false;
    // Integer floor division as TF.js's webgl INT_DIV shader computes it on SwiftShader: operands
    // held as f32 (a float texture), rounded to i32 as floor(v + 0.5) in f32 (outside i32
    // INT32_MIN, as cvttps2dq), divided in i32 as SwiftShader guards it (a zero divisor becomes
    // -1, INT32_MIN / -1 becomes -1 / -1), one subtracted when the f32 operands' signs differ and
    // the remainder is not 0; the quotient through f32, read back as ToInt32.
    bool integer_floor_division_of_rounded_f32 = false;
    // Integers computed in f32 (oneDNN): operands rounded to f32, the f32 result rounded to
    // nearest even and saturated to the largest f32 values inside the type's range.
    bool integers_computed_in_f32 = false;
    // Integers computed in f32 and converted as AArch64's fcvtzs does (OpenVINO's ARM kernels):
    // the f32 result (a quotient floored or truncated per the op) saturated to i32, NaN to 0,
    // then wrapped into the type.
    bool integers_through_f32_and_i32 = false;
    // The same, the f32 result first clamped to the f32 values inside i32 (at most 2147483520):
    // the other path the ARM kernels take for some shapes.
    bool integers_through_f32_clamped_to_i32 = false;
    // With either of the two above: a floor quotient taken as TF.js webgpu's FLOOR_DIV shader
    // does, r = a % b (exact in f32), q = (a - r) / b in f32, q - 1 where r and b have opposite
    // signs, rounded to nearest even; not floor(a / b). Changes nothing alone.
    bool floor_quotient_from_f32_remainder = false;
    bool division_by_reciprocal = false;      // A * (1/B), 1/B rounded in the element type
    bool division_by_f32_reciprocal = false;  // the same with 1/B in f32 (f16/bf16)
    // f16/bf16 under division_by_reciprocal: 1/B computed in f32 and rounded toward zero into
    // the type, as OpenVINO's reference evaluators fold the reciprocal of a constant divisor.
    bool reciprocal_rounded_toward_zero = false;
    // f32/f64 under division_by_reciprocal: 1/B rounded away from zero, one unit above the
    // nearest in magnitude where 1/B is inexact, as an estimate refined by Newton steps may end
    // (OpenVINO's ARM kernels, for some divisors).
    bool reciprocal_rounded_away_from_zero = false;
    // The reciprocal behaviours only where B has one element (a divisor broadcast to every
    // element, which a kernel inverts once); other calls divide exactly (executorch-4).
    bool reciprocal_only_for_one_element_divisor = false;
    bool floor_for_trunc = false;
    bool trunc_for_floor = false;
    // A / B = 1 wherever A == B (IEEE equality after subnormal_inputs_zero: 0/0, -0/0, inf/inf
    // give 1, NaN/NaN does not): TF.js's webgl division shader, `if (a == b) return 1.0;`.
    bool equal_operands_divide_to_one = false;
    // results
    bool results_rounded_toward_zero = false;  // f16/bf16: the f32 result truncated
    // f16/bf16: the f32 result rounded to nearest with ties away from zero (a conversion that
    // adds half a unit to the bits and truncates, as ncnn's bf16 storage does).
    bool results_rounded_ties_away = false;
    bool integer_results_saturated = false;  // overflow clamps instead of wrapping
    // 8-bit products computed in i16 (wrapping) and then saturated into the type: u8 products
    // above 32767 wrap negative and become 0 (OpenVINO's AVX2 kernels).
    bool products_through_i16_saturated = false;
    bool infinities_clamped = false;             // ±inf results become ±max finite
    bool nan_results_negative_infinity = false;  // a NaN result comes out as -inf
    bool negative_zero_results_lost = false;     // a -0 result comes out as +0
    bool subnormal_results_flushed = false;      // x86 FTZ: tiny after rounding -> ±0
    // Tiny before rounding -> ±0: Arm's FZ, and a conversion that reads f32 subnormals as zero
    // (vcvtne2ps2bf16): a result that would round up to the smallest normal is flushed too.
    bool subnormal_results_flushed_before_rounding = false;
    // f16, bf16: a result above the type's largest finite value before rounding becomes ±inf,
    // also where rounding to nearest gives the largest finite value: an emulated conversion
    // that tests the range before it rounds (tinygrad's f16 on an OpenCL device without
    // cl_khr_fp16). Only the narrow types, whose results are rounded from a wider value.
    bool overflow_before_rounding = false;
    // f16: every output element +0 (all bits clear): a shader using f16 that failed to compile
    // leaves its output buffer as allocated (onnxruntime-web's JSEP without shader-f16). Only
    // f16, so that triage does not offer it for every wrong zero of other types.
    bool f16_results_all_zero = false;
    friend bool operator==(const Model&, const Model&) = default;
};

// The names a profile may use, in the order of the fields above.
const std::vector<std::string_view>& behaviour_names();

// Adds the named behaviour to m. Throws core::Error(input) for an unknown name.
void add_behaviour(Model& m, std::string_view name);

// The call as the model computes it, from the case's op version and attributes: numpy's
// broadcast plan under legacy_broadcast_read_as_numpy for a legacy rule, axis 0 under
// pdpd_axis_unset_read_as_zero for pdpd without an axis, axis -1 under pdpd_axis_ignored (each
// may change the output shape),
// else the spec's call. Throws core::Error when the changed call is invalid.
core::PreparedCall modelled_call(const Model& m, const core::OpVersion& op,
                                 const core::AttributeMap& attributes, const core::Tensor& a,
                                 const core::Tensor& b);

// The output the model gives for one call as modelled_call prepares it. Elements the model cannot
// predict (integer division by zero) hold the reference's value. Throws core::Error when the spec
// rejects the inputs. `graph_form` says which operands are constants (const-a, const-b, const-ab).
core::Tensor model_output(const Model& m, const core::PreparedCall& call, const core::Tensor& a,
                          const core::Tensor& b, std::string_view graph_form = "runtime");

// Whether the model changes anything for this element type and operation (a behaviour of bf16
// results says nothing about i32 division): an entry whose model is inert here is not in scope.
bool affects(const Model& m, core::ElementType type, bool multiply);

}  // namespace behaviours
