#!/usr/bin/env python3
"""The ExecuTorch adapters: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 as a one-op
torch.nn.Module (torch.mul; torch.div, with rounding_mode 'trunc' or 'floor' for integers),
exported with torch.export, lowered by ExecuTorch's exir to a .pte program and run by
ExecuTorch's C++ runtime (executorch.runtime) on the CPU. README.md has the mapping.

    eltwise-validate run --backend executorch            # ExecuTorch's own kernels, no delegate
    eltwise-validate run --backend executorch-xnnpack    # --xnnpack: the XNNPACK delegate

With --xnnpack the program is lowered with XnnpackPartitioner and a request whose node
XNNPACK did not take is answered unsupported: ExecuTorch would run it in its own kernels.
The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python).
"""
import re
import sys
import time

import eltwise_adapter_kit as kit

kit.protect_stdout()  # before torch and ExecuTorch: their native logs must not reach stdout

import warnings  # noqa: E402

warnings.filterwarnings("ignore")  # exir's experimental-API warnings go nowhere useful

from executorch.version import __version__ as EXECUTORCH_VERSION  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from executorch.exir import to_edge, to_edge_transform_and_lower  # noqa: E402
from executorch.runtime import Runtime  # noqa: E402
from torch.export import Dim  # noqa: E402

XNNPACK = "--xnnpack" in sys.argv[1:]
if XNNPACK:
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import (  # noqa: E402
        XnnpackPartitioner)

# What the runtime runs (README.md, "Element types"): exir's verifier refuses u32 and u64, the
# kernels have no u16 ("Unhandled dtype UInt16 for mul.out"); XNNPACK takes f16 and f32 only.
PORTABLE_TYPES = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
                  "u8": torch.uint8, "f16": torch.float16, "bf16": torch.bfloat16,
                  "f32": torch.float32, "f64": torch.float64}
XNNPACK_TYPES = {"f16": torch.float16, "f32": torch.float32}
TYPES = XNNPACK_TYPES if XNNPACK else PORTABLE_TYPES
FORMS = ("const-a", "const-b", "const-ab", "dynamic")
RUNTIME = Runtime.get()
# exir's refusals of what it cannot lower: a zero-size dim gives a zero stride
NOT_SUPPORTED = re.compile(r"is not supported for ExecuTorch")
_programs = kit.ModelCache(64, compiles=True)


class OneOp(torch.nn.Module):
    """f(A, B) with the form's constant inputs held as buffers (exported into the program as
    constant tensors); forward takes the other inputs."""

    def __init__(self, f, a=None, b=None):
        super().__init__()
        self.f = f
        self.const = [name for name, t in (("a", a), ("b", b)) if t is not None]
        for name, t in (("a", a), ("b", b)):
            if t is not None:
                self.register_buffer(name, t)

    def forward(self, *fed):
        fed = list(fed)
        a = self.a if "a" in self.const else fed.pop(0)
        b = self.b if "b" in self.const else fed.pop(0)
        return self.f(a, b)


def function(plan):
    if not kit.is_division(plan.op):
        return torch.mul
    if plan.dtype.startswith(("f", "bf")):
        return torch.div  # true division; m_pythondiv has no effect on floats
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    mode = "floor" if plan.floor else "trunc"
    return lambda a, b: torch.div(a, b, rounding_mode=mode)


def dynamic_shapes(fed):
    """Every dim unknown (Dim.AUTO: export keeps a dim static where it must, sizes 0 and 1);
    one entry, forward's *fed, holding one spec per fed tensor."""
    return (tuple({i: Dim.AUTO for i in range(t.dim())} for t in fed),)


def lower(exported):
    if not XNNPACK:
        return to_edge(exported)
    edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    left = [str(n.target) for n in edge.exported_program().graph.nodes
            if n.op == "call_function" and "aten." in str(n.target)]
    if left:  # never validate ExecuTorch's own kernels under the XNNPACK name
        raise kit.Unsupported(f"XnnpackPartitioner did not delegate {', '.join(left)}: "
                              "ExecuTorch would run it in its own kernels, not XNNPACK")
    return edge


def build(plan, form, a, b):
    """(program, method): the loaded one-op program, kept with its method, which uses it."""
    const_a, const_b = kit.constant_inputs(form)
    module = OneOp(function(plan), a if const_a else None, b if const_b else None)
    fed = tuple(t for t, const in ((a, const_a), (b, const_b)) if not const)
    shapes = dynamic_shapes(fed) if form == "dynamic" else None
    try:
        program = lower(torch.export.export(module, fed, dynamic_shapes=shapes)).to_executorch()
    except RuntimeError as e:  # exir's own limits on valid inputs ("0 in strides ...")
        if NOT_SUPPORTED.search(str(e)):
            raise kit.Unsupported(str(e)) from None
        raise
    loaded = RUNTIME.load_program(program.buffer)
    return loaded, loaded.load_method("forward")


def check_numpy(a, b):
    """torch's own broadcasting check, with its message."""
    try:
        torch.broadcast_shapes(a, b)
    except RuntimeError as e:
        raise kit.Rejected(str(e), "shape") from None


def to_torch(array, dtype):
    """A writable copy (inputs may be read-only views of the validator's memory); bf16 arrives
    as raw uint16 bits, reinterpreted (an int16 view: torch has no uint16 arithmetic)."""
    if dtype == "bf16":
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(array.copy())


def to_numpy(tensor):
    if tensor.dtype == torch.bfloat16:
        return kit.Output(tensor.view(torch.int16).numpy(), "bf16")
    return tensor.numpy()


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    plan, a, b = kit.load_planned(request, check_numpy, to_torch)
    if plan.dtype not in TYPES:
        raise kit.Unsupported(f"not claimed: the backend does not run {plan.dtype}")
    key = kit.cache_key(request, form)
    _, method = _programs.get(key, lambda: build(plan, form, a, b))
    const_a, const_b = kit.constant_inputs(form)
    fed = [t for t, const in ((a, const_a), (b, const_b)) if not const]
    try:
        (c,) = method.execute(fed)
    except RuntimeError as e:  # the kernel's reason is in ExecuTorch's log, on stderr
        raise kit.Failed(f"{e} (ExecuTorch logs the kernel's reason on stderr)") from None
    return to_numpy(c)


def warm_up():
    """One compile before the hello: exir's first lowering imports and registers much more."""
    start = time.monotonic()
    x = torch.ones(2, dtype=torch.float32)
    build(kit.Plan("onnx.Mul-14", "f32", False), "runtime", x, x)
    return time.monotonic() - start


def hello():
    compiler = ("torch.export, exir to_edge_transform_and_lower with XnnpackPartitioner, "
                "to_executorch" if XNNPACK else "torch.export, exir to_edge, to_executorch")
    target = ("ExecuTorch runtime, XNNPACK delegate, CPU" if XNNPACK else
              "ExecuTorch runtime, its own CPU kernels (the wheel's optimized and portable)")
    compile = {"compiler": compiler, "target": target, "shapes": "static and dynamic",
               "latency_seconds": 15 if XNNPACK else 10}
    name = "executorch-xnnpack" if XNNPACK else "executorch"
    version = f"{EXECUTORCH_VERSION} (torch {torch.__version__})"
    return kit.hello(name, version, kit.claims(TYPES, truncating_division=True), FORMS,
                     compile=compile)


if __name__ == "__main__":
    print(f"warm-up compile: {warm_up():.1f} s", file=sys.stderr)
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
