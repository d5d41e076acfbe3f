#!/usr/bin/env python3
"""The openvino-onnx adapter: ONNX Mul/Div 1, 6, 7, 13, 14 run by OpenVINO through its ONNX
frontend on the CPU plugin, as a user of OpenVINO runs an ONNX model. README.md has the mapping.

    eltwise-validate run --backend-cmd \
        ".venv/bin/python backends/adapters/openvino-onnx/openvino_onnx_backend.py"

Each request becomes the one-node ModelProto of ../onnx-reference/onnx_model.py, serialized and
read from memory with ov.Core().read_model(model_bytes) (the ONNX frontend converts it), compiled
with core.compile_model(model, "CPU") with OpenVINO's default configuration, and run once with an
infer request. OpenVINO decides everything: what it converts, what it calls invalid, the values.
Compiled models are cached by (graph form, op, attributes, types, shapes), the 64 most recently
used kept; models with constants (graph forms const-a, const-b, const-ab) are not cached.
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "onnx-reference"))
import onnx_model  # noqa: E402

import numpy as np  # noqa: E402

onnx_model.example.protect_stdout()  # OpenVINO's C++ code may write to fd 1 by itself

import openvino as ov  # noqa: E402

example = onnx_model.example
Rejected, Unsupported = onnx_model.Rejected, onnx_model.Unsupported
MAX_CACHED = 64
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
_compiled = collections.OrderedDict()


_message = onnx_model.message


def _refusal(stage, e):
    message = f"{stage}: {_message(e)}"
    if NOT_IMPLEMENTED.search(str(e)):
        return Unsupported(message)
    return Rejected("model", message)


def compiled_model(request):
    """The request's model, read through the ONNX frontend and compiled for the CPU."""
    key = onnx_model.cache_key(request)
    if key in _compiled:
        _compiled.move_to_end(key)
        return _compiled[key]
    model_bytes = onnx_model.build(request).SerializeToString()
    try:
        model = core.read_model(model_bytes)
    except Exception as e:  # noqa: BLE001  the frontend's conversion or validation failed
        raise _refusal("read_model", e) from None
    try:
        compiled = core.compile_model(model, "CPU")
    except Exception as e:  # noqa: BLE001
        raise _refusal("compile_model", e) from None
    if key is None:  # a model with constants: built for this request alone
        return compiled
    _compiled[key] = compiled
    if len(_compiled) > MAX_CACHED:
        _compiled.popitem(last=False)
    return compiled


def to_tensor(array, dtype):
    """bf16 arrives as raw uint16 bits: wrapped as an ov.Tensor of element type bf16."""
    if dtype == "bf16":
        return ov.Tensor(np.ascontiguousarray(array), list(array.shape), ov.Type.bf16)
    return array


def evaluate(request):
    compiled = compiled_model(request)
    feeds = {name: to_tensor(onnx_model.load_input(t), t["dtype"])
             for name, t in onnx_model.runtime_inputs(request)}
    infer = compiled.create_infer_request()
    try:
        infer.infer(feeds)
    except Exception as e:  # noqa: BLE001  a model OpenVINO compiled failed to run
        raise onnx_model.run_failure(request, f"infer: {_message(e)}", SHAPE_ERROR) from None
    output = infer.get_output_tensor(0)
    name = OUTPUT_TYPES.get(output.element_type)
    data = output.data  # bf16 comes back as its raw bits (numpy sees float16)
    if name == "bf16":
        data = data.view(np.uint16)
    return name, np.array(data, copy=True).reshape(tuple(output.shape))


def answer(request):
    return onnx_model.answer(request, evaluate)


def hello():
    return {"protocol": example.PROTOCOL, "name": "openvino-onnx", "version": ov.get_version(),
            "ops": onnx_model.claims(), "graph_forms": onnx_model.GRAPH_FORMS,
            "output_region": True}


if __name__ == "__main__":
    example.serve(answer, hello())
