#!/usr/bin/env python3
"""The JAX adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on XLA through JAX, on the
CPU, jit-compiled: jnp.multiply; jnp.true_divide for floats; for integers jax.lax.div (XLA's Div,
which truncates) or jnp.floor_divide (Divide-1 with m_pythondiv=true). README.md has the mapping.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/jax/jax_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are shared with the numpy and torch adapters: backends/adapters/numpy/converter.py.
Graph forms const-a, const-b, const-ab: the jitted function closes over the constant array(s).
"""
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # no search for GPU/TPU plugins
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # XLA's C++ log (stderr anyway)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numpy"))
import converter  # noqa: E402

converter.example.protect_stdout()  # before JAX is loaded

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)  # i64, u64 and f64 stay 64-bit
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402

example = converter.example
CPU = jax.devices("cpu")[0]
# Every element type the suite knows: all are JAX dtypes (64-bit ones with jax_enable_x64).
JAX_TYPES = {"i8": jnp.int8, "i16": jnp.int16, "i32": jnp.int32, "i64": jnp.int64,
             "u8": jnp.uint8, "u16": jnp.uint16, "u32": jnp.uint32, "u64": jnp.uint64,
             "f16": jnp.float16, "bf16": jnp.bfloat16, "f32": jnp.float32, "f64": jnp.float64}


def _truncating_div(a, b):
    # lax.div is XLA's Div: true division for floats, truncation toward zero for integers. lax
    # ops do not broadcast, so jnp broadcasts first (numpy rules, the same as jnp.multiply's).
    a, b = jnp.broadcast_arrays(a, b)
    return jax.lax.div(a, b)


# One jitted function per (op kind, rounding); jit caches the compiled code per shape and dtype.
JITTED = {f: jax.jit(f) for f in (jnp.multiply, jnp.true_divide, _truncating_div,
                                  jnp.floor_divide)}
# Graph forms (README.md, "Graph forms"): const-* jit a function that closes over the constant
# array(s), which JAX embeds in the XLA program as constants. No "dynamic": XLA compiles static
# shapes only (an exported module with symbolic shapes is refined to the call's shapes first).
FORMS = ("const-a", "const-b", "const-ab")


def check_numpy(a, b):
    """JAX's own broadcasting check, with its message."""
    try:
        jnp.broadcast_shapes(a, b)
    except ValueError as e:
        raise converter.Rejected("shape", str(e)) from None


def to_jax(array, dtype):
    """bf16 arrives as raw uint16 bits: a view as jnp.bfloat16 (ml_dtypes' type), no arithmetic."""
    if dtype == "bf16":
        array = array.view(jnp.bfloat16)
    return jax.device_put(array, CPU)


def to_numpy(result):
    """bf16 leaves as raw uint16 bits, the protocol's file format for it."""
    array = np.asarray(result)
    if array.dtype == jnp.bfloat16:
        return array.view(np.uint16)
    return array


def function(plan):
    """The (not yet jitted) JAX function of a planned request."""
    if not example.is_division(plan.op):
        return jnp.multiply
    if plan.dtype.startswith(("f", "bf")):
        return jnp.true_divide  # m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return jnp.floor_divide if plan.floor else _truncating_div


def evaluate(request):
    form = converter.graph_form(request, FORMS)
    plan, a, b = converter.load_planned(request, check_numpy, to_jax)
    f = function(plan)
    result = converter.with_constants(jax.jit, f, a, b, form)
    if result is None:
        result = JITTED[f](a, b)
    return to_numpy(result.block_until_ready())


def answer(request):
    return converter.answer_with_bf16(request, evaluate)


def hello():
    ops = converter.claims(JAX_TYPES, truncates=True)
    return converter.with_graph_forms({"protocol": example.PROTOCOL, "name": "jax",
                                       "version": jax.__version__, "ops": ops,
                                       "output_region": True}, FORMS)


if __name__ == "__main__":
    example.serve(answer, hello())
