#!/usr/bin/env python3
"""The MLX adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on Apple's MLX, on the CPU:
mx.multiply; mx.divide for floats; mx.floor_divide for integer division that floors (and for
unsigned integers, where floor and truncation agree). MLX has no truncating integer division, so
signed integer ONNX Div is not claimed. README.md has the mapping.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/mlx/mlx_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
Graph forms: mx.compile of a closure over the constant array(s) (const-a, const-b, const-ab), a
shapeless mx.compile (dynamic).
"""
import eltwise_adapter_kit as kit

kit.protect_stdout()  # before MLX is loaded

import mlx.core as mx  # noqa: E402
import numpy as np  # noqa: E402

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
        raise kit.Rejected(str(e), "shape") from None


def to_mlx(array, dtype):
    """The dtype is given explicitly: mx.array() would turn a float64 numpy array into float32.
    bf16 arrives as raw uint16 bits: an MLX uint16 array viewed as bfloat16 (a bit cast)."""
    if dtype == "bf16":
        return mx.array(array, dtype=mx.uint16).view(mx.bfloat16)
    return mx.array(array, dtype=MLX_TYPES[dtype])


def to_numpy(result):
    """bf16 leaves as raw uint16 bits, labelled bf16."""
    if result.dtype == mx.bfloat16:
        return kit.Output(np.array(result.view(mx.uint16)), "bf16")
    return np.array(result)


def function(plan):
    """The MLX function of a planned request."""
    if not kit.is_division(plan.op):
        return mx.multiply
    if plan.dtype.startswith(("f", "bf")):
        return mx.divide  # true division; m_pythondiv has no effect on floats
    if plan.floor or plan.dtype.startswith("u"):  # unsigned: floor and truncation agree
        return mx.floor_divide
    raise kit.Unsupported(f"mlx {mx.__version__} has no truncating integer division "
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
    form = kit.graph_form(request, FORMS)
    plan, a, b = kit.load_planned(request, check_numpy, to_mlx)
    f = function(plan)
    result = kit.with_constants(mx.compile, f, a, b, form)
    if result is None:
        result = shapeless(f, a, b)(a, b) if form == "dynamic" else f(a, b)
    mx.eval(result)
    return to_numpy(result)


def hello():
    ops = kit.claims(MLX_TYPES, truncating_division=False)
    return kit.hello("mlx", mx.__version__, ops, FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
