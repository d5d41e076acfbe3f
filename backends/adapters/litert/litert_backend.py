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
are shared with the numpy adapter: backends/adapters/numpy/converter.py. The model is written by
tflite_model.py (next to this file). Graph forms: constant tensors with model buffers (const-a,
const-b, const-ab), inputs with shape_signature -1 (dynamic).
"""
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "numpy"))
sys.path.insert(0, HERE)
import converter  # noqa: E402

# LiteRT's native code writes to the process's fds ("INFO: Created TensorFlow Lite XNNPACK
# delegate for CPU.", on fd 2 in 2.3.0): fd 1 is guarded before the library is loaded.
converter.example.protect_stdout()

import numpy as np  # noqa: E402
import ai_edge_litert  # noqa: E402
from ai_edge_litert.interpreter import Interpreter, OpResolverType  # noqa: E402

import tflite_model  # noqa: E402

example = converter.example
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
CACHE_SIZE = 64
_interpreters = collections.OrderedDict()
# Graph forms (README.md, "Graph forms"): const-* as constant tensors whose data is a buffer of
# the model (const-ab: a subgraph without inputs), dynamic as inputs whose shape_signature is -1
# in every dimension, resized to the request's shapes before allocate_tensors.
FORMS = ("const-a", "const-b", "const-ab", "dynamic")


def kernel_name(op, dtype, floor):
    """The builtin operator a converter picks for this op version, type and rounding."""
    if not example.is_division(op):
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
    for op, types in converter.ALLOWED.items():
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
        raise converter.Rejected("shape", text) from None
    if "Division by 0" in text or "!= zero_point was not true" in text:
        raise converter.Rejected("value", text) from None  # LiteRT refuses zero divisors
    if "only supports" in text or "not supported" in text:
        raise converter.Unsupported(text) from None


def interpreter(name, dtype, a, b, form):
    """The prepared interpreter of the form's model of (kernel, type, A, B); cached unless it
    holds constants (their values are part of the model)."""
    const_a, const_b = converter.constant_inputs(form)
    key = (form, name, dtype, a.shape, b.shape)
    if key in _interpreters:
        _interpreters.move_to_end(key)
        return _interpreters[key]
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
    if not (const_a or const_b):
        _interpreters[key] = result
        if len(_interpreters) > CACHE_SIZE:
            _interpreters.popitem(last=False)
    return result


def check_broadcastable(request, plan):
    """For a request LiteRT will not see: still refuse shapes no kernel accepts."""
    if plan.b_shape is None:  # numpy broadcasting (the converter checked the other rules)
        try:
            np.broadcast_shapes(tuple(request["a"]["shape"]), tuple(request["b"]["shape"]))
        except ValueError as e:
            raise converter.Rejected("shape", str(e)) from None


def evaluate(request):
    form = converter.graph_form(request, FORMS)
    plan = converter.plan(request, no_numpy_check)
    name = kernel(plan.op, plan.dtype, plan.floor)
    if name is None:
        check_broadcastable(request, plan)
        raise converter.Unsupported(why_unsupported(plan))
    a = np.asarray(example.load_input(request["a"]), order="C")
    b = np.asarray(example.load_input(request["b"]), order="C")
    if plan.b_shape is not None:
        b = b.reshape(plan.b_shape)
    const_a, const_b = converter.constant_inputs(form)
    if (const_a and a.size == 0) or (const_b and b.size == 0):
        check_broadcastable(request, plan)
        raise converter.Unsupported(
            "LiteRT has no zero-size constants: the interpreter takes a tensor's buffer as "
            "constant data only if it holds bytes; with an empty one the tensor is no constant")
    runner = interpreter(name, plan.dtype, a, b, form)
    values = {"A": a, "B": b}
    try:
        for detail in runner.get_input_details():  # the inputs that are not constants
            runner.set_tensor(detail["index"], values[detail["name"]])
        runner.invoke()
    except (RuntimeError, ValueError) as e:
        _interpreters.pop((form, name, plan.dtype, a.shape, b.shape), None)  # do not reuse it
        classify(e)
        raise
    return runner.get_tensor(runner.get_output_details()[0]["index"])


def hello():
    return converter.with_graph_forms({"protocol": example.PROTOCOL, "name": NAME,
                                       "version": ai_edge_litert.__version__, "ops": claims(),
                                       "output_region": True},
                                      FORMS)


if __name__ == "__main__":
    example.serve(lambda request: example.answer(request, evaluate=evaluate), hello())
