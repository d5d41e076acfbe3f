#!/usr/bin/env python3
"""The tvm adapter: ONNX Mul/Div 1, 6, 7, 13, 14 compiled by Apache TVM (Relax) for the CPU, as a
user of TVM compiles an ONNX model. README.md has the mapping.

    eltwise-validate run --backend tvm

Each request becomes the adapter kit's one-node ModelProto (eltwise_adapter_kit.onnx_model, in
the request's graph form), imported with tvm.relax.frontend.onnx.from_onnx, compiled with
tvm.compile(mod, target="llvm") (Relax's default pipeline, LLVM code for x86-64 without -mcpu)
and run on a relax.VirtualMachine on tvm.cpu(). TVM decides everything: what it imports, what
it calls invalid, the values. Compiled modules are cached: runtime form by (op, attributes,
types, shapes), dynamic form by (op, attributes, types, ranks); the forms with constants are
compiled for every request.
"""
import contextlib
import sys

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model

kit.protect_stdout()  # TVM's and LLVM's native code may write to fd 1

# tvm_ffi imports torch, when it is installed, only to exchange tensors with it through DLPack;
# the project's venv has torch for other adapters, and importing it costs 10-20 s of start-up
# here. This adapter never hands TVM a torch tensor, so torch is hidden: TVM runs as without it.
sys.modules.setdefault("torch", None)

import numpy as np  # noqa: E402
import tvm  # noqa: E402
from tvm import relax  # noqa: E402
from tvm.relax.frontend.onnx import from_onnx  # noqa: E402

TARGET = "llvm"  # no -mcpu: LLVM's generic x86-64, the same code on every CPU of the suite
# Worst compilation of one case measured on this machine (README.md, "Compilation"): 0.4 s.
COMPILE = {"compiler": f"Apache TVM {tvm.__version__} Relax: relax.frontend.onnx.from_onnx, "
                       "tvm.compile (default Relax pipeline, LLVM), relax.VirtualMachine",
           "target": "llvm (generic x86-64, no -mcpu), tvm.cpu()",
           "shapes": "static and dynamic", "latency_seconds": 2}
# Relax cannot infer the output shape of a binary op on independent symbolic dims, so the op is
# never legalized and the VM code generator refuses it (README.md, "Graph forms").
NOT_LEGALIZED = "CodeGenVM cannot emit this Relax operator directly"

_modules = kit.ModelCache(compiles=True)


def cache_key(request):
    """Runtime form: kit's key (shapes included). Dynamic form: ranks in place of shapes, since
    one module takes every shape of those ranks. Forms with constants: None (not kept)."""
    if onnx_model.graph_form(request) != "dynamic":
        return onnx_model.cache_key(request)
    a, b = request["a"], request["b"]
    attributes = tuple(sorted((k, str(v)) for k, v in request.get("attributes", {}).items()))
    return ("dynamic", request["op"], attributes, a["dtype"], len(a["shape"]), b["dtype"],
            len(b["shape"]))


def compile_module(request):
    """The request's model imported and compiled; TVM's refusals mapped to answers."""
    model = onnx_model.build(request)
    try:
        # The importer print()s "Error converting operator ..." before raising: Python's
        # sys.stdout is the protocol channel, so its prints go to stderr.
        with contextlib.redirect_stdout(sys.stderr):
            mod = from_onnx(model)
    except Exception as e:  # noqa: BLE001  the importer refused the model: invalid for TVM
        raise kit.Rejected(f"from_onnx: {kit.message(e)}") from None
    try:
        executable = tvm.compile(mod, target=TARGET)
    except Exception as e:  # noqa: BLE001
        text = f"tvm.compile: {kit.message(e)}"
        if NOT_LEGALIZED in text:
            raise kit.Unsupported(text) from None
        raise kit.Rejected(text) from None
    return relax.VirtualMachine(executable, tvm.cpu())


def to_tvm(tensor):
    """An input as a TVM tensor; bf16's raw bits viewed as ml_dtypes.bfloat16, TVM's bf16."""
    array = onnx_model.to_onnx_array(kit.load_input(tensor), tensor["dtype"])
    return tvm.runtime.tensor(np.require(array, requirements="C"), tvm.cpu())  # 0-d stays 0-d


def evaluate(request):
    onnx_model.parse_op(request["op"])  # OpenVINO ops have no ONNX form: unsupported
    vm = _modules.get(cache_key(request), lambda: compile_module(request))
    inputs = [to_tvm(t) for _, t in onnx_model.runtime_inputs(request)]
    try:
        result = vm["main"](*inputs)
    except Exception as e:  # noqa: BLE001  the compiled module's own checks of its inputs
        raise kit.Failed(f"VirtualMachine: {kit.message(e)}") from None
    return result.numpy()


def hello():
    return kit.hello("tvm", tvm.__version__, onnx_model.claims(), onnx_model.GRAPH_FORMS,
                     compile=COMPILE)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
