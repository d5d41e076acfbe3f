#!/usr/bin/env python3
"""The openvino-onnx adapter: ONNX Mul/Div 1, 6, 7, 13, 14 run by OpenVINO through its ONNX
frontend on the CPU plugin, as a user of OpenVINO runs an ONNX model. README.md has the mapping.

    eltwise-validate run --backend-cmd \
        ".venv/bin/python backends/adapters/openvino-onnx/openvino_onnx_backend.py"

Each request becomes the one-node ModelProto of the adapter kit's onnx_model, serialized and
read from memory with ov.Core().read_model(model_bytes) (the ONNX frontend converts it), compiled
with core.compile_model(model, "CPU") with OpenVINO's default configuration, and run once with an
infer request. OpenVINO decides everything: what it converts, what it calls invalid, the values.
Compiled models are cached by (graph form, op, attributes, types, shapes), the 64 most recently
used kept; models with constants (graph forms const-a, const-b, const-ab) are not cached.
"""
import re

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model
import numpy as np

kit.protect_stdout()  # OpenVINO's C++ code may write to fd 1 by itself

import openvino as ov  # noqa: E402

Rejected, Unsupported = kit.Rejected, kit.Unsupported
# OpenVINO's exceptions are RuntimeErrors whose text says what failed. A missing conversion
# rule, kernel or precision is a refusal to implement (`unsupported`); any other failure to read
# (convert and validate) or compile the model means an invalid model (`rejected`).
NOT_IMPLEMENTED = re.compile(r"[Nn]ot implemented|[Nn]ot supported|[Uu]nsupported|"
                             r"No conversion rule|[Cc]annot create .* node|doesn't support")
# The CPU plugin's shape inference failing at infer: only in the dynamic form, whose model
# leaves the shapes to run time ("Eltwise shape infer input shapes dim index: 0 mismatch").
SHAPE_ERROR = re.compile(r"shape infer")
OUTPUT_TYPES = {ov.Type.i8: "i8", ov.Type.i16: "i16", ov.Type.i32: "i32", ov.Type.i64: "i64",
                ov.Type.u8: "u8", ov.Type.u16: "u16", ov.Type.u32: "u32", ov.Type.u64: "u64",
                ov.Type.f16: "f16", ov.Type.bf16: "bf16", ov.Type.f32: "f32",
                ov.Type.f64: "f64"}

core = ov.Core()
_compiled = kit.ModelCache()


_message = kit.message


def _refusal(stage, e):
    message = f"{stage}: {_message(e)}"
    if NOT_IMPLEMENTED.search(str(e)):
        return Unsupported(message)
    return Rejected(message)  # no reason: OpenVINO's text does not say the class


def compile_model(request):
    """The request's model, read through the ONNX frontend and compiled for the CPU."""
    model_bytes = onnx_model.build(request).SerializeToString()
    try:
        model = core.read_model(model_bytes)
    except Exception as e:  # noqa: BLE001  the frontend's conversion or validation failed
        raise _refusal("read_model", e) from None
    try:
        compiled = core.compile_model(model, "CPU")
    except Exception as e:  # noqa: BLE001
        raise _refusal("compile_model", e) from None
    return compiled


def to_tensor(array, dtype):
    """bf16 arrives as raw uint16 bits: wrapped as an ov.Tensor of element type bf16."""
    if dtype == "bf16":
        return ov.Tensor(np.ascontiguousarray(array), list(array.shape), ov.Type.bf16)
    return array


def evaluate(request):
    compiled = _compiled.get(onnx_model.cache_key(request), lambda: compile_model(request))
    feeds = {name: to_tensor(kit.load_input(t), t["dtype"])
             for name, t in onnx_model.runtime_inputs(request)}
    infer = compiled.create_infer_request()
    try:
        infer.infer(feeds)
    except Exception as e:  # noqa: BLE001  a model OpenVINO compiled failed to run
        raise onnx_model.run_failure(request, f"infer: {_message(e)}", SHAPE_ERROR) from None
    output = infer.get_output_tensor(0)
    data = np.array(output.data, copy=True).reshape(tuple(output.shape))
    name = OUTPUT_TYPES.get(output.element_type)  # bf16: its raw bits (numpy sees float16)
    return kit.Output(data, name) if name else data


def hello():
    return kit.hello("openvino-onnx", ov.get_version(), onnx_model.claims(),
                     onnx_model.GRAPH_FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
