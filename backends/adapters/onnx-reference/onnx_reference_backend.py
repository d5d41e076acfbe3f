#!/usr/bin/env python3
"""The onnx-reference adapter: ONNX Mul/Div 1, 6, 7, 13, 14 run by the ONNX project's own
reference implementation, onnx.reference.ReferenceEvaluator (Python + numpy). README.md has the
mapping.

    eltwise-validate run --backend-cmd \
        ".venv/bin/python backends/adapters/onnx-reference/onnx_reference_backend.py"

Each request becomes a one-node ModelProto (the adapter kit's onnx_model), which
is validated the way the ONNX project offers it, onnx.checker.check_model(model,
full_check=True) (schema, attribute and type checks and strict shape inference), and then run:
ReferenceEvaluator(model).run(None, {"A": a, "B": b}). The evaluator itself checks nothing of
the model (types, attributes, shapes): without the checker it would accept i8 in Mul-7,
booleans, unknown attributes and more. README.md says what each answer means.
"""
import re
import resource
import warnings

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model
import numpy as np
import onnx
import onnx.checker
import onnx.shape_inference
from onnx.reference import ReferenceEvaluator

Rejected, Unsupported = kit.Rejected, kit.Unsupported
# The evaluator ignores the legacy broadcast/axis attributes and broadcasts like numpy, which for
# some valid legacy shapes makes outputs of many GiB (README.md, finding onnx-reference-1). A
# cap on the address space turns those into a MemoryError (answer `error`) instead of
# exhausting the machine's memory.
ADDRESS_SPACE_LIMIT = 2 << 30
# numpy's broadcasting error: in the dynamic form, the evaluator's only check of the shapes.
SHAPE_ERROR = re.compile(r"could not be broadcast")
# Division by zero and overflow are test data: numpy's RuntimeWarnings are noise on stderr.
warnings.filterwarnings("ignore", category=RuntimeWarning)


_message = kit.message


def _validate(model):
    """The ONNX project's own validation of a model; its errors mean an invalid model."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        raise Rejected(_message(e)) from None  # no reason: the checker does not say the class


_sessions = kit.ModelCache()


def new_session(request):
    """The checked model's ReferenceEvaluator."""
    model = onnx_model.build(request)
    _validate(model)
    try:
        return ReferenceEvaluator(model)
    except NotImplementedError as e:
        raise Unsupported(_message(e)) from None


def evaluate(request):
    evaluator = _sessions.get(onnx_model.cache_key(request), lambda: new_session(request))
    feeds = {name: onnx_model.to_onnx_array(kit.load_input(t), t["dtype"])
             for name, t in onnx_model.runtime_inputs(request)}
    try:
        with np.errstate(all="ignore"):
            (c,) = evaluator.run(None, feeds)
    except NotImplementedError as e:
        raise Unsupported(_message(e)) from None
    except Exception as e:  # noqa: BLE001  the library failed on a model it accepted
        cause = f" (caused by {_message(e.__cause__)})" if e.__cause__ else ""
        raise onnx_model.run_failure(request, _message(e) + cause, SHAPE_ERROR) from None
    return np.asarray(c)  # bf16: ml_dtypes.bfloat16, labelled and written as bits by the kit


def hello():
    return kit.hello("onnx-reference", onnx.__version__, onnx_model.claims(),
                     onnx_model.GRAPH_FORMS)


def limit_memory():
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > ADDRESS_SPACE_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, hard))


if __name__ == "__main__":
    limit_memory()
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
