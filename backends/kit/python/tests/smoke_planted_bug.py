#!/usr/bin/python3
"""The kit's example with the classic bug, for the smoke check's test: it claims ONNX Div on
signed integers and floors where the spec truncates."""
import eltwise_adapter_kit as kit
from eltwise_adapter_kit import example


def floors(op, dtype, floor, a, b):
    return example.compute(op, dtype, True, a, b)


if __name__ == "__main__":
    greeting = dict(example.hello(), ops=kit.claims(kit.NUMPY_TYPES, truncating_division=True))
    kit.serve(lambda r: kit.answer(r, lambda q: example.evaluate(q, floors)), greeting)
