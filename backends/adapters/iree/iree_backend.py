#!/usr/bin/env python3
"""The iree adapter: ONNX Mul/Div 7, 13, 14 compiled by IREE for the CPU (llvm-cpu), as a user of
IREE compiles an ONNX model. README.md has the mapping.

    eltwise-validate run --backend iree

Each request becomes the adapter kit's one-node ModelProto (eltwise_adapter_kit.onnx_model, in
the request's graph form), written to the scratch folder and imported by IREE's own
`iree-import-onnx` (its main(), in this process: the ONNX checker, ONNX shape inference, then
torch-mlir's ONNX dialect), compiled by `iree-compile` through iree.compiler.compile_file
(input type onnx, llvm-cpu, generic x86-64 CPU) and run by iree.runtime on the local-sync
driver. IREE decides everything: what it imports, what it compiles, the values. Compiled
modules are cached: runtime form by (op, attributes, types, shapes), dynamic form by (op,
attributes, types, ranks); the forms with constants are compiled for every request.
"""
import contextlib
import importlib.metadata
import os
import re
import sys
import tempfile

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model

kit.protect_stdout()  # the compiler and runtime are native code that may write to fd 1

import iree.compiler as compiler  # noqa: E402
import iree.runtime as runtime  # noqa: E402
import numpy as np  # noqa: E402
from iree.compiler import version as compiler_version  # noqa: E402
from iree.compiler.tools.import_onnx import __main__ as import_onnx  # noqa: E402

# The wheels' versions (iree.compiler.version.VERSION is the build's, "3.13.0rc20261016").
VERSION = importlib.metadata.version("iree-base-compiler")
RUNTIME_VERSION = importlib.metadata.version("iree-base-runtime")

# "generic": the same code on every x86-64 CPU of the suite ("host" would tune it to this CPU
# and make its f16/bf16 code depend on AVX512-FP16/-BF16). f64 kept: IREE's input pipeline
# demotes f64 to f32 by default, and the compiled function then refuses f64 arguments.
COMPILE_FLAGS = ["--iree-llvmcpu-target-cpu=generic", "--iree-input-demote-f64-to-f32=false"]
COMPILE = {"compiler": f"IREE {VERSION} (revision {compiler_version.REVISIONS['IREE'][:12]}): "
                       "iree-import-onnx (torch-mlir ONNX dialect), iree-compile with input "
                       "type onnx, default options but " + " ".join(COMPILE_FLAGS),
           "target": f"llvm-cpu, generic x86-64 CPU; iree.runtime {RUNTIME_VERSION} local-sync",
           "shapes": "static and dynamic", "latency_seconds": 10}
# No lowering of the op: torch-mlir converts ONNX Mul and Div from opset 7 on only.
NOT_LOWERED = re.compile(r"failed to legalize operation 'torch\.operator'")
# The compiled module's run-time check of the dims, in the dynamic form only.
SHAPE_ERROR = re.compile(r"mismatch|broadcast|dimension|shape", re.IGNORECASE)
# A signless integer output (torch-mlir drops the sign) has the model's declared type.
SIGNLESS = {int(runtime.HalElementType.INT_8), int(runtime.HalElementType.INT_16),
            int(runtime.HalElementType.INT_32), int(runtime.HalElementType.INT_64)}
INTEGER_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
                 "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}

_config = runtime.Config("local-sync")  # one instance and CPU device for every module
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


def import_model(model, folder):
    """MLIR text of the model, by iree-import-onnx's own main(); its refusals are Rejected."""
    onnx_path, mlir_path = os.path.join(folder, "model.onnx"), os.path.join(folder, "model.mlir")
    with open(onnx_path, "wb") as f:
        f.write(model.SerializeToString())
    try:
        # The tool prints its diagnostics with print(): Python's stdout is the protocol channel.
        with contextlib.redirect_stdout(sys.stderr):
            import_onnx.main(import_onnx.parse_arguments([onnx_path, "-o", mlir_path]))
    except Exception as e:  # noqa: BLE001  the checker, shape inference or the importer refused
        raise kit.Rejected(f"iree-import-onnx: {kit.message(e)}") from None
    return mlir_path


def compile_module(request):
    """The request's model imported, compiled, loaded into a runtime context: its function."""
    model = onnx_model.build(request)
    with tempfile.TemporaryDirectory(dir=os.environ.get("ELTWISE_SCRATCH")) as folder:
        mlir_path = import_model(model, folder)
        try:
            vmfb = compiler.compile_file(mlir_path, input_type="onnx",
                                         target_backends=["llvm-cpu"], extra_args=COMPILE_FLAGS)
        except compiler.CompilerToolError as e:
            text = f"iree-compile: {diagnostics(e)}"
            raise (kit.Unsupported(text) if NOT_LOWERED.search(text)
                   else kit.Rejected(text)) from None
    context = runtime.SystemContext(config=_config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, vmfb))
    return context.modules.module[model.graph.name]


def diagnostics(error):
    """The compiler's diagnostics, without the command line that CompilerToolError repeats."""
    text = str(error)
    return text[text.find("Diagnostics:"):] if "Diagnostics:" in text else text


def to_iree(tensor):
    """An input as numpy; bf16's raw bits viewed as ml_dtypes.bfloat16, which IREE takes."""
    array = onnx_model.to_onnx_array(kit.load_input(tensor), tensor["dtype"])
    return np.require(array, requirements="C")  # C order; a 0-d array stays 0-d


def to_numpy(result, dtype):
    """The output on the host; a signless integer output read as the model's declared type."""
    array = result.to_host()
    if int(result._buffer_view.element_type) in SIGNLESS and dtype in INTEGER_TYPES:
        wanted = np.dtype(INTEGER_TYPES[dtype])
        if wanted.itemsize == array.dtype.itemsize:
            return array.view(wanted)
    return array


def evaluate(request):
    onnx_model.parse_op(request["op"])  # OpenVINO ops have no ONNX form: unsupported
    function = _modules.get(cache_key(request), lambda: compile_module(request))
    inputs = [to_iree(t) for _, t in onnx_model.runtime_inputs(request)]
    try:
        result = function(*inputs)
    except Exception as e:  # noqa: BLE001  the module's checks of its arguments, or a fault
        raise onnx_model.run_failure(request, f"invoke: {kit.message(e)}", SHAPE_ERROR) from None
    return to_numpy(result, request["a"]["dtype"])


def hello():
    return kit.hello("iree", VERSION, onnx_model.claims(),
                     onnx_model.GRAPH_FORMS, compile=COMPILE)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
