#!/usr/bin/env python3
"""The LiteRT adapter (TensorFlow Lite runtime, PyPI ai-edge-litert): ONNX Mul/Div 1-14 and
OpenVINO Multiply-1/Divide-1 as one-op .tflite models (builtin MUL, DIV or FLOOR_DIV) run by
ai_edge_litert.interpreter.Interpreter on the CPU. README.md has the mapping.

    eltwise-validate run --backend-cmd "python backends/adapters/litert/litert_backend.py"
    eltwise-validate run --backend-cmd "python backends/adapters/litert/litert_backend.py --xnnpack"

Without a flag (backend `litert`) the interpreter uses the builtin kernels only
(OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES). With --xnnpack (backend `litert-xnnpack`)
it uses OpResolverType.BUILTIN, which applies LiteRT's default delegate, XNNPACK, to the nodes
it supports (f32/f16 MUL and DIV up to rank 6); the other nodes stay on the builtin kernels.

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python). The model is written by tflite_model.py (next to
this file). Graph forms: constant tensors with model buffers (const-a,
const-b, const-ab), inputs with shape_signature -1 (dynamic).
"""
import sys

import eltwise_adapter_kit as kit

# LiteRT's native code writes to the process's fds ("INFO: Created TensorFlow Lite XNNPACK
# delegate for CPU.", on fd 2 in 2.3.0): fd 1 is guarded before the library is loaded.
kit.protect_stdout()

import numpy as np  # noqa: E402
import ai_edge_litert  # noqa: E402
from ai_edge_litert.interpreter import Interpreter, OpResolverType  # noqa: E402

import tflite_model  # noqa: E402  (beside this file: the script's folder is on sys.path)

XNNPACK = "--xnnpack" in sys.argv[1:]
NAME = "litert-xnnpack" if XNNPACK else "litert"
RESOLVER = (OpResolverType.BUILTIN if XNNPACK
            else OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)

# The types each builtin kernel computes as plain (not quantized) arithmetic, found by running
# every TFLite tensor type through it (README.md, "What it claims"). MUL and DIV on int8/uint8
# (and DIV on int16) are quantized kernels: without quantization parameters they return zeros,
# so they are not used.
KERNEL_TYPES = {"MUL": {"i16", "i32", "i64", "u32", "f16", "f32"},
                "DIV": {"i32", "f32"} | ({"f16"} if XNNPACK else set()),  # f16: XNNPACK only
                "FLOOR_DIV": {"i8", "i16", "i32"}}
QUANTIZED = {"MUL": {"i8", "u8"}, "DIV": {"i8", "i16", "u8"}}
_interpreters = kit.ModelCache()
# Graph forms (README.md, "Graph forms"): const-* as constant tensors whose data is a buffer of
# the model (const-ab: a subgraph without inputs), dynamic as inputs whose shape_signature is -1
# in every dimension, resized to the request's shapes before allocate_tensors.
FORMS = ("const-a", "const-b", "const-ab", "dynamic")


def kernel_name(op, dtype, floor):
    """The builtin operator a converter picks for this op version, type and rounding."""
    if not kit.is_division(op):
        return "MUL"
    if dtype.startswith(("f", "bf")):
        return "DIV"  # true division; m_pythondiv has no effect on floats
    if floor and dtype.startswith("i"):
        return "FLOOR_DIV"  # Divide-1 with m_pythondiv (the default) on signed integers
    return "DIV"  # truncating integer division (ONNX Div, Divide-1 m_pythondiv=false)


def kernel(op, dtype, floor):
    """The builtin operator if it computes this type as plain arithmetic, else None."""
    name = kernel_name(op, dtype, floor)
    return name if dtype in KERNEL_TYPES[name] else None


def claims():
    ops = {}
    for op, types in kit.op_table.ELEMENT_TYPES.items():
        floors = (True, False) if op == "openvino.Divide-1" else (False,)
        ops[op] = [t for t in types if any(kernel(op, t, f) for f in floors)]
    return ops


def why_unsupported(plan):
    """The reason LiteRT cannot run a claimed op version on this type and rounding."""
    name = kernel_name(plan.op, plan.dtype, plan.floor)
    head = f"LiteRT {ai_edge_litert.__version__} ({NAME}): builtin {name}"
    if plan.dtype in QUANTIZED.get(name, ()):
        return (f"{head} on {plan.dtype} is a quantized-only kernel (without scale and zero "
                f"point it returns zeros); plain {name} types: "
                f"{' '.join(sorted(KERNEL_TYPES[name]))}")
    return f"{head} has no {plan.dtype} kernel ({name}: {' '.join(sorted(KERNEL_TYPES[name]))})"


def no_numpy_check(a, b):
    """LiteRT checks numpy broadcasting itself, when the interpreter prepares the node."""


def classify(error):
    """Maps LiteRT's error to the protocol's answer (raises), or returns for `error`."""
    text = str(error).strip()
    if "not broadcastable" in text or "failed to reshape" in text:
        raise kit.Rejected(text, "shape") from None
    if "Division by 0" in text or "!= zero_point was not true" in text:
        raise kit.Rejected(text) from None  # LiteRT refuses zero divisors
    if "only supports" in text or "not supported" in text:
        raise kit.Unsupported(text) from None


def interpreter(name, dtype, a, b, form):
    """The prepared interpreter of the form's model of (kernel, type, A, B); cached unless it
    holds constants (their values are part of the model)."""
    const_a, const_b = kit.constant_inputs(form)
    try:
        out_shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        out_shape = a.shape  # LiteRT itself refuses the shapes in allocate_tensors
    model = tflite_model.build(name, dtype, a.shape, dtype, b.shape, out_shape,
                               a_data=a.tobytes() if const_a else None,
                               b_data=b.tobytes() if const_b else None,
                               dynamic=form == "dynamic")
    try:
        result = Interpreter(model_content=model, experimental_op_resolver_type=RESOLVER)
        if form == "dynamic":  # the shapes become known only now
            for detail in result.get_input_details():
                shape = {"A": a, "B": b}[detail["name"]].shape
                result.resize_tensor_input(detail["index"], shape, strict=True)
        result.allocate_tensors()
    except (RuntimeError, ValueError) as e:
        classify(e)
        raise
    return result


def interpreter_key(form, name, dtype, a, b):
    return None if any(kit.constant_inputs(form)) else (form, name, dtype, a.shape, b.shape)


def check_broadcastable(request, plan):
    """For a request LiteRT will not see: still refuse shapes no kernel accepts."""
    if plan.b_shape is None:  # numpy broadcasting (the converter checked the other rules)
        try:
            np.broadcast_shapes(tuple(request["a"]["shape"]), tuple(request["b"]["shape"]))
        except ValueError as e:
            raise kit.Rejected(str(e), "shape") from None


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    plan = kit.plan(request, no_numpy_check)
    name = kernel(plan.op, plan.dtype, plan.floor)
    if name is None:
        check_broadcastable(request, plan)
        raise kit.Unsupported(why_unsupported(plan))
    a = np.asarray(kit.load_input(request["a"]), order="C")
    b = np.asarray(kit.load_input(request["b"]), order="C")
    if plan.b_shape is not None:
        b = b.reshape(plan.b_shape)
    const_a, const_b = kit.constant_inputs(form)
    if (const_a and a.size == 0) or (const_b and b.size == 0):
        check_broadcastable(request, plan)
        raise kit.Unsupported(
            "LiteRT has no zero-size constants: the interpreter takes a tensor's buffer as "
            "constant data only if it holds bytes; with an empty one the tensor is no constant")
    key = interpreter_key(form, name, plan.dtype, a, b)
    runner = _interpreters.get(key, lambda: interpreter(name, plan.dtype, a, b, form))
    values = {"A": a, "B": b}
    try:
        for detail in runner.get_input_details():  # the inputs that are not constants
            runner.set_tensor(detail["index"], values[detail["name"]])
        runner.invoke()
    except (RuntimeError, ValueError) as e:
        _interpreters.drop(key)  # do not reuse it
        classify(e)
        raise
    return runner.get_tensor(runner.get_output_details()[0]["index"])


def hello():
    return kit.hello(NAME, ai_edge_litert.__version__, claims(), FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
