#!/usr/bin/env python3
"""An adapter written outside the repository, the way backends/kit/python/README.md shows it:
one file, the kit installed with pip. numpy computes and judges numpy broadcasting itself; the
kit checks what numpy cannot express (the op version's types and attributes), lowers ONNX legacy
and pdpd broadcasting, reads the inputs and writes the answer."""
import eltwise_adapter_kit as kit

kit.protect_stdout()  # before the library: whatever its native code prints goes to stderr

import numpy as np  # noqa: E402


def compute(plan, a, b):
    if not kit.is_division(plan.op):
        return np.multiply(a, b)
    if plan.dtype.startswith("f"):
        return np.divide(a, b)
    if plan.floor or plan.dtype.startswith("u"):  # unsigned: floor and truncation agree
        return np.floor_divide(a, b)
    raise kit.Unsupported("numpy has no truncating integer division")


def evaluate(request):
    plan, a, b = kit.load_planned(request, kit.left_to_library)
    with np.errstate(all="ignore"):  # inf, NaN and wrapping are test data, not warnings
        try:
            return compute(plan, a, b)
        except ValueError as e:  # numpy refusing the shapes: "operands could not be broadcast"
            raise kit.Rejected(str(e)) from None


if __name__ == "__main__":
    claims = kit.claims(kit.NUMPY_TYPES, truncating_division=False)
    kit.serve(lambda request: kit.answer(request, evaluate),
              kit.hello("outside-numpy", np.__version__, claims))
