#!/usr/bin/env python3
"""The MLX adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on Apple's MLX, on the CPU:
mx.multiply; mx.divide for floats; mx.floor_divide for integer division that floors (and for
unsigned integers, where floor and truncation agree). MLX has no truncating integer division, so
signed integer ONNX Div is not claimed. README.md has the mapping.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/mlx/mlx_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are shared with the numpy and torch adapters: backends/adapters/numpy/converter.py.
Graph forms: mx.compile of a closure over the constant array(s) (const-a, const-b, const-ab), a
shapeless mx.compile (dynamic).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numpy"))
import converter  # noqa: E402

converter.example.protect_stdout()  # before MLX is loaded

import mlx.core as mx  # noqa: E402
import numpy as np  # noqa: E402

example = converter.example
mx.set_default_device(mx.cpu)
# Every element type the suite knows is an MLX dtype; float64 runs on the CPU device only.
MLX_TYPES = {"i8": mx.int8, "i16": mx.int16, "i32": mx.int32, "i64": mx.int64,
             "u8": mx.uint8, "u16": mx.uint16, "u32": mx.uint32, "u64": mx.uint64,
             "f16": mx.float16, "bf16": mx.bfloat16, "f32": mx.float32, "f64": mx.float64}


def check_numpy(a, b):
    """MLX's own broadcasting check, with its message."""
    try:
        mx.broadcast_shapes(a, b)
    except ValueError as e:
        raise converter.Rejected("shape", str(e)) from None


def to_mlx(array, dtype):
    """The dtype is given explicitly: mx.array() would turn a float64 numpy array into float32.
    bf16 arrives as raw uint16 bits: an MLX uint16 array viewed as bfloat16 (a bit cast)."""
    if dtype == "bf16":
        return mx.array(array, dtype=mx.uint16).view(mx.bfloat16)
    return mx.array(array, dtype=MLX_TYPES[dtype])


def to_numpy(result):
    """bf16 leaves as raw uint16 bits, the protocol's file format for it."""
    if result.dtype == mx.bfloat16:
        result = result.view(mx.uint16)
    return np.array(result)


def function(plan):
    """The MLX function of a planned request."""
    if not example.is_division(plan.op):
        return mx.multiply
    if plan.dtype.startswith(("f", "bf")):
        return mx.divide  # true division; m_pythondiv has no effect on floats
    if plan.floor or plan.dtype.startswith("u"):  # unsigned: floor and truncation agree
        return mx.floor_divide
    raise converter.Unsupported(f"mlx {mx.__version__} has no truncating integer division "
                                "(only floor_divide; divide gives a float quotient)")


# Graph forms (README.md, "Graph forms"): const-* mx.compile a function that closes over the
# constant array(s), which the compiled graph captures as constants; dynamic: one
# mx.compile(f, shapeless=True) per (function, type, ranks), traced once on all-1 shapes, so the
# graph the request runs on was built without its shapes.
FORMS = ("const-a", "const-b", "const-ab", "dynamic")
_shapeless = {}


def shapeless(f, a, b):
    key = (f, a.dtype, a.ndim, b.ndim)
    if key not in _shapeless:
        g = mx.compile(f, shapeless=True)
        mx.eval(g(mx.ones((1,) * a.ndim, a.dtype), mx.ones((1,) * b.ndim, b.dtype)))
        _shapeless[key] = g
    return _shapeless[key]


def evaluate(request):
    form = converter.graph_form(request, FORMS)
    plan, a, b = converter.load_planned(request, check_numpy, to_mlx)
    f = function(plan)
    result = converter.with_constants(mx.compile, f, a, b, form)
    if result is None:
        result = shapeless(f, a, b)(a, b) if form == "dynamic" else f(a, b)
    mx.eval(result)
    return to_numpy(result)


def answer(request):
    return converter.answer_with_bf16(request, evaluate)


def hello():
    ops = converter.claims(MLX_TYPES, truncates=False)
    return converter.with_graph_forms({"protocol": example.PROTOCOL, "name": "mlx",
                                       "version": mx.__version__, "ops": ops,
                                       "output_region": True}, FORMS)


if __name__ == "__main__":
    example.serve(answer, hello())
