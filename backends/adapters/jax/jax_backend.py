#!/usr/bin/env python3
"""The JAX adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on XLA through JAX, on the
CPU, jit-compiled: jnp.multiply; jnp.true_divide for floats; for integers jax.lax.div (XLA's Div,
which truncates) or jnp.floor_divide (Divide-1 with m_pythondiv=true). README.md has the mapping.

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/jax/jax_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
Graph forms const-a, const-b, const-ab: the jitted function closes over the constant array(s).
"""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # no search for GPU/TPU plugins
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # XLA's C++ log (stderr anyway)

import eltwise_adapter_kit as kit  # noqa: E402

kit.protect_stdout()  # before JAX is loaded

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)  # i64, u64 and f64 stay 64-bit
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402

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
        raise kit.Rejected(str(e), "shape") from None


def to_jax(array, dtype):
    """bf16 arrives as raw uint16 bits: a view as jnp.bfloat16 (ml_dtypes' type), no arithmetic."""
    if dtype == "bf16":
        array = array.view(jnp.bfloat16)
    return jax.device_put(array, CPU)


def to_numpy(result):
    """A numpy array; bf16 (ml_dtypes.bfloat16) leaves as its raw bits, labelled by the kit."""
    return np.asarray(result)


def function(plan):
    """The (not yet jitted) JAX function of a planned request."""
    if not kit.is_division(plan.op):
        return jnp.multiply
    if plan.dtype.startswith(("f", "bf")):
        return jnp.true_divide  # m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return jnp.floor_divide if plan.floor else _truncating_div


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    plan, a, b = kit.load_planned(request, check_numpy, to_jax)
    f = function(plan)
    result = kit.with_constants(jax.jit, f, a, b, form)
    if result is None:
        result = JITTED[f](a, b)
    return to_numpy(result.block_until_ready())


def hello():
    ops = kit.claims(JAX_TYPES, truncating_division=True)
    return kit.hello("jax", jax.__version__, ops, FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
