#!/usr/bin/python3
"""The adapter kit's numpy example with one planted bug, to show that the validator catches it.

Usage: planted_bug_backend.py --bug NAME [--graph-forms LIST]
  floor-for-trunc         the classic bug: integer division floors where the spec truncates
                          (ONNX Div, Divide-1 with m_pythondiv=false); it also claims ONNX Div's
                          signed integer types, which the correct example leaves out
  lost-negative-zero      float results of -0 come back as +0
  accept-unbroadcastable  shapes that do not broadcast are answered ok, not rejected: the output
                          has A's shape, computed with B's values cycled (np.resize) to it
  refuses-zero-divisor    an integer division call with any zero divisor fails with an error, as
                          ONNX Runtime and PyTorch do; the others floor where the spec truncates
  wrong-rejection-reason  every rejection says its reason is the element type
  const-b-reciprocal      claims the graph forms runtime and const-b; in const-b, float division
                          multiplies by the reciprocal of the constant B (a folding rewrite)
  crash-int-min-by-minus-one
                          signed integer division exits (status 3) whenever any broadcast pair
                          is INT_MIN / -1; otherwise it computes correctly, truncating where the
                          spec truncates (it claims the signed types for that)
  fails-integer-division  every integer division call fails with an error ("compile error"),
                          whatever its divisors: a fault of its own, not one of x / 0
Everything else is answered exactly like the kit's example (eltwise_adapter_kit.example). --graph-forms LIST
(comma-separated) makes the hello claim those graph forms, which then all compute alike.
"""
import argparse
import os

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import checks, example as nb  # the one copy of the backend logic
import numpy as np


def floor_for_trunc(request):
    return nb.evaluate(request, compute=lambda op, dtype, floor, a, b:
                       nb.compute(op, dtype, True, a, b))


def lost_negative_zero(request):
    result = np.asarray(nb.evaluate(request))
    if result.dtype.kind != "f":
        return result
    return np.where(result == 0, result.dtype.type(0), result)  # -0 == 0 too: both become +0


def accept_unbroadcastable(request):
    try:
        return nb.evaluate(request)
    except kit.Rejected as e:
        if e.reason != "shape":
            raise
    op, dtype = request["op"], request["a"]["dtype"]
    _, floor = checks.resolve_attributes(op, request.get("attributes", {}))
    a, b = kit.load_input(request["a"]), kit.load_input(request["b"])
    return nb.compute(op, dtype, floor, a, np.resize(b, a.shape))


def refuses_zero_divisor(request):
    if kit.is_division(request["op"]) and not request["b"]["dtype"].startswith("f"):
        if (kit.load_input(request["b"]) == 0).any():
            raise ZeroDivisionError("integer division by zero")
    return floor_for_trunc(request)


def exact(op, dtype, floor, a, b):
    """The example's computation, with the signed integer division that truncates."""
    if not kit.is_division(op) or dtype[0] != "i" or floor:
        return nb.compute(op, dtype, floor, a, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        inexact = (a - q * b != 0) & ((a < 0) != (b < 0))
        return (q + inexact).astype(q.dtype)


def crash_int_min_by_minus_one(request):
    def compute(op, dtype, floor, a, b):
        if kit.is_division(op) and dtype[0] == "i":
            low = np.iinfo(np.asarray(a).dtype).min
            if np.any((np.asarray(a) == low) & (np.asarray(b) == -1)):
                os._exit(3)  # as a library's SIGFPE would, without a core file
        return exact(op, dtype, floor, a, b)
    return nb.evaluate(request, compute=compute)


def fails_integer_division(request):
    if kit.is_division(request["op"]) and not request["b"]["dtype"].startswith("f"):
        raise RuntimeError("compile error: no kernel for integer division")
    return nb.evaluate(request)


def const_b_reciprocal(request):
    if request.get("graph_form") != "const-b" or not kit.is_division(request["op"]):
        return nb.evaluate(request)
    return nb.evaluate(request, compute=lambda op, dtype, floor, a, b:
                       nb.compute(op, dtype, floor, a, np.reciprocal(b)) if dtype[0] != "f"
                       else np.multiply(a, np.reciprocal(b)))


BUGS = {"floor-for-trunc": floor_for_trunc, "lost-negative-zero": lost_negative_zero,
        "accept-unbroadcastable": accept_unbroadcastable,
        "refuses-zero-divisor": refuses_zero_divisor, "wrong-rejection-reason": nb.evaluate,
        "const-b-reciprocal": const_b_reciprocal,
        "crash-int-min-by-minus-one": crash_int_min_by_minus_one,
        "fails-integer-division": fails_integer_division}


def answer(request, evaluate):
    response = kit.answer(request, evaluate)
    if evaluate is nb.evaluate and response.get("status") == "rejected":
        response["reason"] = "type"  # wrong-rejection-reason
    return response


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", required=True, choices=sorted(BUGS))
    parser.add_argument("--graph-forms", help="claim these graph forms (comma-separated)")
    args = parser.parse_args()
    evaluate = BUGS[args.bug]
    greeting = nb.hello()
    # claims the pairs it gets wrong (or crashes on)
    if evaluate in (floor_for_trunc, refuses_zero_divisor, crash_int_min_by_minus_one):
        greeting["ops"] = kit.claims(kit.NUMPY_TYPES, truncating_division=True)
    if evaluate is const_b_reciprocal:
        greeting["graph_forms"] = ["runtime", "const-b"]
    if args.graph_forms:
        greeting["graph_forms"] = args.graph_forms.split(",")
    kit.serve(lambda request: answer(request, evaluate), greeting)


if __name__ == "__main__":
    main()
