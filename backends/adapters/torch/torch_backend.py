#!/usr/bin/python3
"""The PyTorch adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on torch.mul and
torch.div (true division for floats; rounding_mode 'trunc' or 'floor' for integers), on the CPU.
README.md has the mapping.

    eltwise-validate run --backend-cmd "/usr/bin/python3 backends/adapters/torch/torch_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are shared with the numpy adapter: backends/adapters/numpy/converter.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numpy"))
import converter  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

example = converter.example
# torch 1.13 has no uint16, uint32, uint64: those pairs are not claimed.
TORCH_TYPES = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
               "u8": torch.uint8, "f16": torch.float16, "bf16": torch.bfloat16,
               "f32": torch.float32, "f64": torch.float64}


def check_numpy(a, b):
    """torch's own broadcasting check, with its message."""
    try:
        torch.broadcast_shapes(a, b)
    except RuntimeError as e:
        raise converter.Rejected("shape", str(e)) from None


def to_torch(array, dtype):
    """bf16 arrives as raw uint16 bits: reinterpret them (int16 view: torch has no uint16)."""
    if dtype == "bf16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def to_numpy(tensor):
    """bf16 leaves as raw uint16 bits, the protocol's file format for it."""
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def compute(plan, a, b):
    if plan.dtype not in TORCH_TYPES:
        raise converter.Unsupported(f"torch {torch.__version__} has no {plan.dtype}")
    if not example.is_division(plan.op):
        return torch.mul(a, b)
    if plan.dtype.startswith(("f", "bf")):
        return torch.div(a, b)  # true division; m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return torch.div(a, b, rounding_mode="floor" if plan.floor else "trunc")


def evaluate(request):
    plan, a, b = converter.load_planned(request, check_numpy, to_torch)
    return to_numpy(compute(plan, a, b))


def answer(request):
    response = example.answer(request, evaluate=evaluate)
    # The file of a bf16 result holds uint16 bits; torch has no uint16, so u16 means bf16.
    if response.get("dtype") == "u16":
        response["dtype"] = "bf16"
    return response


def hello():
    ops = converter.claims(TORCH_TYPES, truncates=True)
    return {"protocol": example.PROTOCOL, "name": "torch", "version": torch.__version__,
            "ops": ops, "output_region": True}


if __name__ == "__main__":
    example.serve(answer, hello())
