#!/usr/bin/python3
"""The numpy adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on numpy's
multiply, divide (floats) and floor_divide (where the op floors). README.md has the mapping.

    eltwise-validate run --backend-cmd "/usr/bin/python3 backends/adapters/numpy/numpy_backend.py"

The computation is backends/examples/numpy_backend.py's; this adds the ONNX legacy versions
and pdpd broadcasting, lowered by reshaping B (converter.py, shared with the torch adapter).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import converter  # noqa: E402  (converter.example is backends/examples/numpy_backend.py)

import numpy as np  # noqa: E402

example = converter.example


def check_numpy(a, b):
    """numpy's own broadcasting check, with its message."""
    try:
        np.broadcast_shapes(a, b)
    except ValueError as e:
        raise converter.Rejected("shape", str(e)) from None


def evaluate(request):
    plan = converter.plan(request, check_numpy)
    a, b = example.load_input(request["a"]), example.load_input(request["b"])
    if plan.b_shape is not None:
        b = b.reshape(plan.b_shape)
    # ONNX truncates signed integer quotients: numpy has no such function -> Unsupported.
    return example.compute(plan.op, plan.dtype, plan.floor, a, b)


def hello():
    ops = converter.claims(example.NUMPY_TYPES, truncates=False)
    return {"protocol": example.PROTOCOL, "name": "numpy", "version": np.__version__,
            "ops": ops, "output_region": True}


if __name__ == "__main__":
    example.serve(lambda request: example.answer(request, evaluate=evaluate), hello())
