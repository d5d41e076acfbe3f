#!/usr/bin/env python3
"""The PaddlePaddle adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on Paddle's own
element-wise API, dygraph (eager) on the CPU: paddle.multiply; paddle.divide for floats (true
division); for integers paddle.divide(..., rounding_mode="trunc") (ONNX Div, Divide-1 with
m_pythondiv=false) or paddle.floor_divide (Divide-1 with m_pythondiv=true; unsigned types).
README.md has the mapping.

    eltwise-validate run --backend paddle

OpenVINO's pdpd broadcast rule comes from Paddle's old elementwise ops, whose `axis` attribute
aligned B with A from that axis. Paddle 3's public API has no such form any more (paddle.multiply
and paddle.divide broadcast like numpy; fluid.layers.elementwise_mul went with Paddle 2.5): the
adapter kit lowers pdpd, and ONNX legacy broadcasting, by reshaping B, as a model converter does.
"""
import re

import eltwise_adapter_kit as kit

kit.protect_stdout()  # before Paddle is loaded: its native code logs by itself

import numpy as np  # noqa: E402
import paddle  # noqa: E402

paddle.set_device("cpu")
# The suite's types that are Paddle dtypes. Paddle has no unsigned type but uint8: a numpy uint16
# array even becomes a bfloat16 tensor, which is how bf16's raw bits come in (and go out).
PADDLE_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
                "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64"}
NO_KERNEL = re.compile(r"\(NotFound\)|\(Unimplemented\)")
INVALID = re.compile(r"InvalidArgument")


def to_paddle(array, dtype):
    if dtype not in PADDLE_TYPES:  # before Paddle sees it: it has no such type at all
        raise kit.Unsupported(f"paddle {paddle.__version__} has no {dtype}")
    tensor = paddle.to_tensor(np.asarray(array, order="C"))  # bf16: <u2 bits -> bfloat16; 0-d kept
    if str(tensor.dtype) != "paddle." + PADDLE_TYPES[dtype]:
        raise kit.Failed(f"paddle.to_tensor made {tensor.dtype} of {dtype} input")
    return tensor


def to_numpy(tensor):
    if tensor.dtype == paddle.bfloat16:
        return kit.Output(tensor.numpy(), "bf16")  # numpy() gives bf16 as its uint16 bits
    return tensor.numpy()


def compute(plan, a, b):
    if not kit.is_division(plan.op):
        return paddle.multiply(a, b)
    if plan.dtype.startswith(("f", "bf")):
        return paddle.divide(a, b)  # true division; m_pythondiv has no effect on floats
    if plan.floor or plan.dtype.startswith("u"):  # unsigned: floor and truncation agree
        return paddle.floor_divide(a, b)
    return paddle.divide(a, b, rounding_mode="trunc")  # ONNX Div, Divide-1 m_pythondiv=false


def no_numpy_check(a, b):
    """Paddle checks numpy broadcasting itself, in the op."""


def evaluate(request):
    plan, a, b = kit.load_planned(request, no_numpy_check, to_paddle)
    try:
        return to_numpy(compute(plan, a, b))
    except (RuntimeError, ValueError, OSError) as e:  # Paddle's errors, by their text
        text = str(e).strip()
        if NO_KERNEL.search(text):
            raise kit.Unsupported(text) from None
        if INVALID.search(text):
            raise kit.Rejected(text) from None
        raise kit.Failed(text) from None


def hello():
    return kit.hello("paddle", paddle.__version__, kit.claims(PADDLE_TYPES, True))


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
