#!/usr/bin/env python3
"""The onnx-reference adapter: ONNX Mul/Div 1, 6, 7, 13, 14 run by the ONNX project's own
reference implementation, onnx.reference.ReferenceEvaluator (Python + numpy). README.md has the
mapping.

    eltwise-validate run --backend-cmd \
        ".venv/bin/python backends/adapters/onnx-reference/onnx_reference_backend.py"

Each request becomes a one-node ModelProto (onnx_model.py, shared with ../openvino-onnx), which
is validated the way the ONNX project offers it, onnx.checker.check_model(model,
full_check=True) (schema, attribute and type checks and strict shape inference), and then run:
ReferenceEvaluator(model).run(None, {"A": a, "B": b}). The evaluator itself checks nothing of
the model (types, attributes, shapes): without the checker it would accept i8 in Mul-7,
booleans, unknown attributes and more. README.md says what each answer means.
"""
import collections
import os
import re
import resource
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_model  # noqa: E402

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnx.checker  # noqa: E402
import onnx.shape_inference  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

example = onnx_model.example
Rejected, Unsupported = onnx_model.Rejected, onnx_model.Unsupported
MAX_CACHED = 64
# The evaluator ignores the legacy broadcast/axis attributes and broadcasts like numpy, which for
# some valid legacy shapes makes outputs of many GiB (README.md, finding onnx-reference-1). A
# cap on the address space turns those into a MemoryError (answer `error`) instead of
# exhausting the machine's memory.
ADDRESS_SPACE_LIMIT = 2 << 30
# numpy's broadcasting error: in the dynamic form, the evaluator's only check of the shapes.
SHAPE_ERROR = re.compile(r"could not be broadcast")
# Division by zero and overflow are test data: numpy's RuntimeWarnings are noise on stderr.
warnings.filterwarnings("ignore", category=RuntimeWarning)


_message = onnx_model.message


def _validate(model):
    """The ONNX project's own validation of a model; its errors mean an invalid model."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        raise Rejected("model", _message(e)) from None


_sessions = collections.OrderedDict()


def session(request):
    """The checked model's ReferenceEvaluator, cached by (form, op, attributes, types, shapes)
    unless the model holds constants."""
    key = onnx_model.cache_key(request)
    if key in _sessions:
        _sessions.move_to_end(key)
        return _sessions[key]
    model = onnx_model.build(request)
    _validate(model)
    try:
        evaluator = ReferenceEvaluator(model)
    except NotImplementedError as e:
        raise Unsupported(_message(e)) from None
    if key is None:
        return evaluator
    _sessions[key] = evaluator
    if len(_sessions) > MAX_CACHED:
        _sessions.popitem(last=False)
    return evaluator


def to_library(array, dtype):
    """bf16 arrives as raw uint16 bits: the reference's bf16 is ml_dtypes.bfloat16 (a view)."""
    return array.view(ml_dtypes.bfloat16) if dtype == "bf16" else array


def type_name(dtype):
    if dtype == np.dtype(ml_dtypes.bfloat16):
        return "bf16"
    return next((name for name, t in example.NUMPY_TYPES.items() if np.dtype(t) == dtype),
                None)


def evaluate(request):
    evaluator = session(request)
    feeds = {name: to_library(onnx_model.load_input(t), t["dtype"])
             for name, t in onnx_model.runtime_inputs(request)}
    try:
        with np.errstate(all="ignore"):
            (c,) = evaluator.run(None, feeds)
    except NotImplementedError as e:
        raise Unsupported(_message(e)) from None
    except Exception as e:  # noqa: BLE001  the library failed on a model it accepted
        cause = f" (caused by {_message(e.__cause__)})" if e.__cause__ else ""
        raise onnx_model.run_failure(request, _message(e) + cause, SHAPE_ERROR) from None
    c = np.asarray(c)
    return type_name(c.dtype), c


def answer(request):
    return onnx_model.answer(request, evaluate)


def hello():
    return {"protocol": example.PROTOCOL, "name": "onnx-reference", "version": onnx.__version__,
            "ops": onnx_model.claims(), "graph_forms": onnx_model.GRAPH_FORMS,
            "output_region": True}


def limit_memory():
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > ADDRESS_SPACE_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, hard))


if __name__ == "__main__":
    limit_memory()
    example.serve(answer, hello())
