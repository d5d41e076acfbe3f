#!/usr/bin/python3
"""The PyTorch adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on torch.mul and
torch.div (true division for floats; rounding_mode 'trunc' or 'floor' for integers), on the CPU.
README.md has the mapping.

    eltwise-validate run --backend torch

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
"""
import eltwise_adapter_kit as kit
import numpy as np
import torch

# torch 1.13 has no uint16, uint32, uint64: those pairs are not claimed.
TORCH_TYPES = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
               "u8": torch.uint8, "f16": torch.float16, "bf16": torch.bfloat16,
               "f32": torch.float32, "f64": torch.float64}


def check_numpy(a, b):
    """torch's own broadcasting check, with its message."""
    try:
        torch.broadcast_shapes(a, b)
    except RuntimeError as e:
        raise kit.Rejected(str(e), "shape") from None


def to_torch(array, dtype):
    """bf16 arrives as raw uint16 bits: reinterpret them (int16 view: torch has no uint16)."""
    if dtype == "bf16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def to_numpy(tensor):
    """bf16 leaves as raw bits, labelled bf16 (torch has no uint16: an int16 view)."""
    if tensor.dtype == torch.bfloat16:
        return kit.Output(tensor.view(torch.int16).numpy(), "bf16")
    return tensor.numpy()


def compute(plan, a, b):
    if plan.dtype not in TORCH_TYPES:
        raise kit.Unsupported(f"torch {torch.__version__} has no {plan.dtype}")
    if not kit.is_division(plan.op):
        return torch.mul(a, b)
    if plan.dtype.startswith(("f", "bf")):
        return torch.div(a, b)  # true division; m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return torch.div(a, b, rounding_mode="floor" if plan.floor else "trunc")


def evaluate(request):
    plan, a, b = kit.load_planned(request, check_numpy, to_torch)
    return to_numpy(compute(plan, a, b))


def hello():
    ops = kit.claims(TORCH_TYPES, truncating_division=True)
    return kit.hello("torch", torch.__version__, ops)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
