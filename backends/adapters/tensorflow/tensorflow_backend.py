#!/usr/bin/env python3
"""The TensorFlow adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on TensorFlow's own
element-wise ops, on the CPU: tf.math.multiply; tf.math.divide for floats (true division); for
integers tf.truncatediv (ONNX Div, Divide-1 with m_pythondiv=false) or tf.math.floordiv
(Divide-1 with m_pythondiv=true; and unsigned types, where floor and truncation agree).
README.md has the mapping.

    eltwise-validate run --backend tensorflow            # eager
    eltwise-validate run --backend tensorflow-function   # inside tf.function (a graph)

Eager runs each op at once; --function (backend tensorflow-function) runs it inside a
tf.function, which traces a graph that Grappler optimizes before it runs; its graph forms close
over constants (const-a, const-b, const-ab) or trace with unknown dims (dynamic). The checks of
each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B) are the adapter
kit's; TensorFlow checks numpy broadcasting itself.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # its INFO/WARNING log (stderr anyway)

import eltwise_adapter_kit as kit  # noqa: E402

kit.protect_stdout()  # before TensorFlow is loaded

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.config.set_visible_devices([], "GPU")
FUNCTION = "--function" in sys.argv[1:]
NAME = "tensorflow-function" if FUNCTION else "tensorflow"
# Every element type the suite knows is a TensorFlow dtype; which kernels exist is TF's answer.
TF_TYPES = {"i8": tf.int8, "i16": tf.int16, "i32": tf.int32, "i64": tf.int64,
            "u8": tf.uint8, "u16": tf.uint16, "u32": tf.uint32, "u64": tf.uint64,
            "f16": tf.float16, "bf16": tf.bfloat16, "f32": tf.float32, "f64": tf.float64}
# Graph forms of tf.function: constants captured by the traced function, unknown dims in the
# input signature. Eager has no graph: runtime only.
FORMS = ("const-a", "const-b", "const-ab", "dynamic") if FUNCTION else ()


def to_tf(array, dtype):
    """bf16 arrives as raw uint16 bits: a bit cast to tf.bfloat16, no arithmetic."""
    if dtype == "bf16":
        return tf.bitcast(tf.constant(array, tf.uint16), tf.bfloat16)
    return tf.constant(array, TF_TYPES[dtype])


def to_numpy(result):
    if result.dtype == tf.bfloat16:
        return kit.Output(tf.bitcast(result, tf.uint16).numpy(), "bf16")
    return result.numpy()


def function(plan):
    """The TensorFlow function of a planned request."""
    if not kit.is_division(plan.op):
        return tf.math.multiply
    if plan.dtype.startswith(("f", "bf")):
        return tf.math.divide  # true division; m_pythondiv has no effect on floats
    if plan.floor or plan.dtype.startswith("u"):  # unsigned: floor and truncation agree
        return tf.math.floordiv
    return tf.truncatediv  # ONNX Div and Divide-1 with m_pythondiv=false truncate


_functions = {}  # (f, form, ranks): its tf.function; tf.function keeps one trace per signature


def traced(f, a, b, form):
    """f(a, b) inside a tf.function, in the request's graph form: a new function closing over
    the constants (const-*), or one kept per function whose trace is reused (runtime: per
    shapes and types; dynamic: per ranks and types, traced with every dim unknown)."""
    const = kit.with_constants(tf.function, f, a, b, form)
    if const is not None:
        return const
    key = (f, form, len(a.shape), len(b.shape), a.dtype)
    if key not in _functions:
        signature = None
        if form == "dynamic":
            signature = [tf.TensorSpec([None] * len(x.shape), x.dtype) for x in (a, b)]
        _functions[key] = tf.function(f, input_signature=signature, reduce_retracing=False)
    return _functions[key](a, b)


def classify(error):
    """TensorFlow's errors as answers: no kernel for the type is `unsupported`, as is a limit of
    its own on valid inputs ("... is not supported yet", broadcasting above 5 dims); its refusal
    of the inputs (incompatible shapes, an integer zero divisor) is `rejected`."""
    text = f"{type(error).__name__}: {getattr(error, 'message', error)}".strip()
    if isinstance(error, (tf.errors.NotFoundError, tf.errors.UnimplementedError)):
        return kit.Unsupported(text)
    if isinstance(error, (tf.errors.InvalidArgumentError, ValueError, TypeError)):
        return kit.Rejected(text)
    return kit.Failed(text)


def no_numpy_check(a, b):
    """TensorFlow checks numpy broadcasting itself, in the op."""


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    plan, a, b = kit.load_planned(request, no_numpy_check, to_tf)
    f = function(plan)
    try:
        result = traced(f, a, b, form) if FUNCTION else f(a, b)
        return to_numpy(result)
    except (tf.errors.OpError, ValueError, TypeError) as e:
        raise classify(e) from None


def hello():
    ops = kit.claims(TF_TYPES, truncating_division=True)
    return kit.hello(NAME, tf.__version__, ops, FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
