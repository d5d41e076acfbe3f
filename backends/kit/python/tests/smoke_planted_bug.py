#!/usr/bin/python3
"""The kit's example with one classic bug, for the smoke check's test; the argument names it:
  onnx-div-floors      it claims ONNX Div on signed integers and floors where the spec truncates;
  pythondiv-swapped    OpenVINO Divide-1 truncates where m_pythondiv floors, and floors where
                       m_pythondiv=false truncates (it claims truncating division);
  legacy-ignores-axis  ONNX Mul/Div-1 and -6 broadcast=1 align B to A's end whatever the axis
                       (numpy broadcasting of B as given)."""
import sys

import numpy as np

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import example


def truncating(a, b):
    """Integer division toward zero, from numpy's floor division."""
    q = np.floor_divide(a, b)
    return q + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0))).astype(q.dtype)


def floors(op, dtype, floor, a, b):
    return example.compute(op, dtype, True, a, b)


def swapped(op, dtype, floor, a, b):
    if op == "openvino.Divide-1" and dtype[0] == "i":
        with np.errstate(all="ignore"):
            return truncating(a, b) if floor else np.floor_divide(a, b)
    return example.compute(op, dtype, floor, a, b)


def ignores_axis(request):
    plan, a, b = kit.load_planned(request)
    if kit.op_table.is_legacy(plan.op):
        b = kit.load_input(request["b"])  # the lowering to B [.., 1s] left out
    return example.compute(plan.op, plan.dtype, plan.floor, a, b)


if __name__ == "__main__":
    bug = sys.argv[1] if len(sys.argv) > 1 else "onnx-div-floors"
    truncates = bug in ("onnx-div-floors", "pythondiv-swapped")
    greeting = dict(example.hello(), ops=kit.claims(kit.NUMPY_TYPES, truncating_division=truncates))
    evaluate = {"onnx-div-floors": lambda q: example.evaluate(q, floors),
                "pythondiv-swapped": lambda q: example.evaluate(q, swapped),
                "legacy-ignores-axis": ignores_axis}[bug]
    kit.serve(lambda r: kit.answer(r, evaluate), greeting)
