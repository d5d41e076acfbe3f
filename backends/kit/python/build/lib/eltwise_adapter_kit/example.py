"""The worked example of backends/PROTOCOL.md, and the numpy adapter: ONNX Mul/Div 1-14 and
OpenVINO Multiply-1/Divide-1 on numpy's multiply, divide (floats) and floor_divide (where the op
floors), with the kit doing the rest. Run it under the validator:

    eltwise-validate run --backend-cmd "python3 -m eltwise_adapter_kit.example"

It claims what numpy computes exactly as the specs say: no bf16 (numpy has no such type), no
signed integer division that truncates (numpy only floors). The kit checks each request (types,
attributes, shapes: Rejected) and lowers ONNX legacy and pdpd broadcasting to numpy's.
"""
import numpy as np

from . import lowering, op_table, protocol
from .answers import Unsupported, answer
from .tensors import NUMPY_TYPES


def compute(op, dtype, floor, a, b):
    """The element-wise result; `floor` picks floor or truncating integer division."""
    if dtype not in NUMPY_TYPES:
        raise Unsupported(f"numpy has no {dtype}")
    # Division by zero, overflow and NaN are expected in test data: numpy's warnings are noise.
    with np.errstate(all="ignore"):
        if not op_table.is_division(op):
            return np.multiply(a, b)  # integers wrap modulo 2^N, floats round to nearest even
        if dtype.startswith("f"):
            # f16: numpy divides in f32, then rounds to f16; that double rounding is
            # innocuous (24 >= 2 * 11 + 2 bits): the result is correctly rounded.
            return np.divide(a, b)
        if floor or dtype.startswith("u"):  # unsigned: floor and truncation agree
            return np.floor_divide(a, b)
    raise Unsupported("numpy has no truncating integer division (only floor_divide)")


def evaluate(request, compute=compute):
    """Checks and lowers the request, then computes it."""
    plan, a, b = lowering.load_planned(request)
    return compute(plan.op, plan.dtype, plan.floor, a, b)


def hello():
    ops = op_table.claims(NUMPY_TYPES, truncating_division=False)
    return protocol.hello("numpy", np.__version__, ops)


def main():
    protocol.serve(lambda request: answer(request, evaluate), hello())


if __name__ == "__main__":
    main()
