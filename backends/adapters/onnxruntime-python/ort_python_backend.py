#!/usr/bin/env python3
"""The onnxruntime-python adapter: ONNX Mul/Div 1, 6, 7, 13, 14 run by ONNX Runtime's Python
package (PyPI onnxruntime, the current release) on the CPU execution provider, as a user of ONNX
Runtime runs an ONNX model. README.md has the mapping.

    eltwise-validate run --backend onnxruntime-python

Each request becomes the adapter kit's one-node ModelProto (eltwise_adapter_kit.onnx_model, in
the request's graph form), loaded into an InferenceSession and run once. ONNX Runtime decides
everything; its errors are mapped by their text as the Node adapter (../onnxruntime) maps them,
so that the two bindings of the same runtime are judged alike: a missing kernel is
`unsupported`, a model or inputs ORT calls invalid `rejected`, anything else `error`.
"""
import re

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model

kit.protect_stdout()  # ORT's native logging must not reach the protocol channel

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
from onnx import TensorProto  # noqa: E402

NO_KERNEL = re.compile(r"Could not find an implementation|Failed to find kernel|NOT_IMPLEMENTED")
INVALID_MODEL = re.compile(r"invalid model|Type Error|ShapeInferenceError|TypeInferenceError|"
                           r"Unrecognized attribute|Mismatched attribute|INVALID_ARGUMENT|"
                           r"INVALID_GRAPH")
# Run-time refusals of the inputs ("Can broadcast 0 by 0 or 1. 3 is invalid.", a zero divisor)
INVALID_INPUTS = re.compile(r"Attempting to broadcast|Can broadcast .* is invalid|"
                            r"Integer division by zero|INVALID_ARGUMENT")

_sessions = kit.ModelCache()


def new_session(request):
    model = onnx_model.build(request).SerializeToString()
    options = ort.SessionOptions()
    options.log_severity_level = 4  # its warnings ("opset 7 or above") are noise; errors raise
    try:
        return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001  ORT's refusal, by its text
        text = str(e)
        if NO_KERNEL.search(text):
            raise kit.Unsupported(text) from None
        if INVALID_MODEL.search(text) or INVALID_INPUTS.search(text):
            raise kit.Rejected(text) from None  # a constant zero divisor is refused here too
        raise kit.Failed(f"InferenceSession: {text}") from None


def feed(tensor):
    """numpy arrays as they are; bf16 raw bits as an OrtValue of element type BFLOAT16."""
    array = kit.load_input(tensor)
    if tensor["dtype"] == "bf16":
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(np.ascontiguousarray(array),
                                                               TensorProto.BFLOAT16)
    return array


def evaluate(request):
    onnx_model.parse_op(request["op"])  # OpenVINO ops are not ONNX: unsupported
    session = _sessions.get(onnx_model.cache_key(request), lambda: new_session(request))
    feeds = {name: feed(t) for name, t in onnx_model.runtime_inputs(request)}
    try:
        (c,) = session.run(None, feeds)
    except Exception as e:  # noqa: BLE001
        text = str(e)
        raise (kit.Rejected(text) if INVALID_INPUTS.search(text) else kit.Failed(text)) from None
    return np.asarray(c)


def hello():
    return kit.hello("onnxruntime-python", ort.__version__, onnx_model.claims(),
                     onnx_model.GRAPH_FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
