#!/usr/bin/env python3
"""The PyTorch adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on eager torch.mul and
torch.div (true division for floats; rounding_mode 'trunc' or 'floor' for integers), on the CPU.
README.md has the mapping.

    eltwise-validate run --backend torch

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
"""
import eltwise_adapter_kit as kit

kit.protect_stdout()  # before torch is loaded

import torch  # noqa: E402

# Every element type the suite knows is a torch dtype in torch 2.x.
TORCH_TYPES = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
               "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32,
               "u64": torch.uint64, "f16": torch.float16, "bf16": torch.bfloat16,
               "f32": torch.float32, "f64": torch.float64}
# torch 2.15 multiplies these on the CPU but has no integer division kernel for them
# ('"div_trunc_cpu" not implemented for 'UInt16'', the same for div_floor_cpu): the division
# op versions do not claim them.
NO_INTEGER_DIVISION = (torch.uint16, torch.uint32, torch.uint64)


def no_check(a, b):
    """numpy broadcasting is left to torch.mul/div themselves (their TensorIterator checks the
    shapes before computing). torch.broadcast_shapes would import sympy on the first request
    (8-18 s on this machine, past the case timeout)."""


def to_torch(array, dtype):
    """bf16 arrives as raw uint16 bits: reinterpret them as torch.bfloat16 (a view, no copy)."""
    tensor = torch.from_numpy(array)
    return tensor.view(torch.bfloat16) if dtype == "bf16" else tensor


def to_numpy(tensor):
    """bf16 leaves as its raw bits (a uint16 view), labelled bf16."""
    if tensor.dtype == torch.bfloat16:
        return kit.Output(tensor.view(torch.uint16).numpy(), "bf16")
    return tensor.numpy()


def compute(plan, a, b):
    if not kit.is_division(plan.op):
        return torch.mul(a, b)
    if plan.dtype.startswith(("f", "bf")):
        return torch.div(a, b)  # true division; m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return torch.div(a, b, rounding_mode="floor" if plan.floor else "trunc")


def evaluate(request):
    plan, a, b = kit.load_planned(request, no_check, to_torch)
    try:
        return to_numpy(compute(plan, a, b))
    except RuntimeError as e:
        # TensorIterator's broadcast error: "The size of tensor a (3) must match the size of
        # tensor b (2) at non-singleton dimension 0". Any other error (ZeroDivisionError) is
        # the call failing: `error`.
        if str(e).startswith("The size of tensor"):
            raise kit.Rejected(str(e), "shape") from None
        raise


def hello():
    ops = kit.claims(TORCH_TYPES, truncating_division=True)
    ops = {op: [t for t in types
                if not (kit.is_division(op) and TORCH_TYPES[t] in NO_INTEGER_DIVISION)]
           for op, types in ops.items()}
    return kit.hello("torch", torch.__version__, ops)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
