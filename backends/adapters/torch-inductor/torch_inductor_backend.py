#!/usr/bin/env python3
"""The TorchInductor adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 as torch.mul and
torch.div compiled by torch.compile(backend="inductor", fullgraph=True, dynamic=True) into C++
kernels for the CPU (g++, OpenMP). README.md has the mapping and how it compiles.

    eltwise-validate run --backend torch-inductor

Nothing runs eagerly: a graph break is an error (fullgraph), so is a compile error
(suppress_errors off) and the recompile limit (set high, and an error when hit). The checks of
each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B) are the
adapter kit's (backends/kit/python).
"""
import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

import eltwise_adapter_kit as kit


def fresh_cache_dir():
    """An empty Inductor cache for this process (README.md, "Caches"): every compilation this
    adapter counts is a real one, none is loaded from an earlier run's FX graph or .so cache.
    Folders of adapters that died by a signal (no atexit) are removed at the next start."""
    parent = Path(tempfile.gettempdir()) / f"eltwise-torch-inductor-{os.getuid()}"
    parent.mkdir(exist_ok=True)
    for old in parent.iterdir():
        if old.name.isdigit() and not Path(f"/proc/{old.name}").exists():
            shutil.rmtree(old, ignore_errors=True)
    folder = parent / str(os.getpid())
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return str(folder)


os.environ["TORCHINDUCTOR_CACHE_DIR"] = fresh_cache_dir()  # read when torch is imported
kit.protect_stdout()  # before torch is loaded: g++ and Inductor's logs go to stderr

import torch  # noqa: E402
import torch._dynamo  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402
from torch._dynamo.utils import counters  # noqa: E402
from torch._inductor import cpu_vec_isa  # noqa: E402

# Every compile is one request's: no limit may send a call back to eager Python.
torch._dynamo.config.recompile_limit = 1_000_000
torch._dynamo.config.accumulated_recompile_limit = 1_000_000
torch._dynamo.config.fail_on_recompile_limit_hit = True
torch._dynamo.config.suppress_errors = False
# No ATen fallback kernel inside the compiled graph for an op without an Inductor lowering.
inductor_config.implicit_fallbacks = False
# Compile in this process: a worker pool would import torch again per worker (2 cores here).
inductor_config.compile_threads = 1

TORCH_TYPES = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
               "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32,
               "u64": torch.uint64, "f16": torch.float16, "bf16": torch.bfloat16,
               "f32": torch.float32, "f64": torch.float64}


def mul(a, b):
    return torch.mul(a, b)


def true_div(a, b):
    return torch.div(a, b)  # m_pythondiv has no effect on floats


def trunc_div(a, b):
    return torch.div(a, b, rounding_mode="trunc")


def floor_div(a, b):
    return torch.div(a, b, rounding_mode="floor")


def compile_fn(f):
    return torch.compile(f, backend="inductor", fullgraph=True, dynamic=True)


# Dynamo keeps the compiled graphs of each function, one per guard set: dtype, rank, and the
# dims of size 0 or 1 (specialized; every other size is symbolic), so a new shape of a known
# (dtype, rank, 0/1 pattern) runs without compiling.
COMPILED = {f: compile_fn(f) for f in (mul, true_div, trunc_div, floor_div)}
# Graph forms (README.md): const-* hold the constant input(s) as buffers of a module that
# Inductor compiles with freezing, which makes them constants of the code (folded, or inlined
# into the kernel). A tensor closed over by the compiled function would not do: Dynamo lifts it
# to a graph input, so the kernel would read it at run time like runtime's. No "dynamic": see
# README.md.
FORMS = ("const-a", "const-b", "const-ab")


class WithConstants(torch.nn.Module):
    """f(a, b) with the given inputs as buffers (constants under freezing), the others as the
    forward's arguments."""

    def __init__(self, f, a=None, b=None):
        super().__init__()
        self.f = f
        self.register_buffer("a", a)
        self.register_buffer("b", b)

    def forward(self, *inputs):
        rest = list(inputs)
        a = self.a if self.a is not None else rest.pop(0)
        b = self.b if self.b is not None else rest.pop(0)
        return self.f(a, b)


def run_with_constants(f, a, b, form):
    """The form's graph compiled for these values and shapes (static: they are all known) and
    run once; its Dynamo cache entry is dropped after, since no other request can use it."""
    const_a, const_b = kit.constant_inputs(form)
    module = WithConstants(f, a if const_a else None, b if const_b else None)
    compiled = torch.compile(module, backend="inductor", fullgraph=True, dynamic=False)
    try:
        with inductor_config.patch(freezing=True):
            return compiled(*[x for x, const in ((a, const_a), (b, const_b)) if not const])
    finally:
        torch._dynamo.reset_code(WithConstants.forward.__code__)


def check_numpy(a, b):
    """torch's own broadcasting check, with its message."""
    try:
        torch.broadcast_shapes(a, b)
    except RuntimeError as e:
        raise kit.Rejected(str(e), "shape") from None


def to_torch(array, dtype):
    """bf16 arrives as raw uint16 bits: reinterpret them as torch.bfloat16 (a view, no copy)."""
    tensor = torch.from_numpy(array)
    return tensor.view(torch.bfloat16) if dtype == "bf16" else tensor


def to_numpy(tensor):
    """bf16 leaves as its raw bits (a uint16 view), labelled bf16."""
    if tensor.dtype == torch.bfloat16:
        return kit.Output(tensor.view(torch.uint16).numpy(), "bf16")
    return tensor.numpy()


def function(plan):
    if not kit.is_division(plan.op):
        return mul
    if plan.dtype.startswith(("f", "bf")):
        return true_div
    # ONNX Div and Divide-1 with m_pythondiv=false truncate; m_pythondiv=true floors.
    return floor_div if plan.floor else trunc_div


def graphs_compiled():
    """Graphs Dynamo has handed to Inductor so far (each one compiled: the cache is fresh)."""
    return counters["stats"]["unique_graphs"]


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    plan, a, b = kit.load_planned(request, check_numpy, to_torch)
    f = function(plan)
    before = graphs_compiled()
    try:
        with torch.no_grad():
            if any(kit.constant_inputs(form)):
                result = run_with_constants(f, a, b, form)
            else:
                result = COMPILED[f](a, b)
    finally:
        kit.compiled(graphs_compiled() - before)
    return to_numpy(result)


def warm_up():
    """One compile before the hello: the first one in a process imports and initialises
    Inductor's code generator and compiles its C++ prelude (README.md, "Compile latency").
    Its own function, so that no request's graph is compiled here."""
    def warm(a, b):
        return torch.add(a, b)

    start = time.monotonic()
    compile_fn(warm)(torch.ones(3), torch.ones(3))
    return time.monotonic() - start


def hello():
    # Every type for every op version: Inductor generates its own C++ for u16, u32 and u64
    # division too (eager torch has no CPU kernel for it).
    ops = kit.claims(TORCH_TYPES, truncating_division=True)
    compile_info = {"compiler": "TorchInductor (torch.compile, C++/OpenMP codegen)",
                    "target": f"cpu, vec ISA {cpu_vec_isa.pick_vec_isa() or 'none (scalar)'}",
                    "shapes": "dynamic",
                    "latency_seconds": 30}
    return kit.hello("torch-inductor", torch.__version__, ops, FORMS, compile=compile_info)


if __name__ == "__main__":
    warm_up()
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
