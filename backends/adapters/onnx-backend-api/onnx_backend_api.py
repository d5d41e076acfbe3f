#!/usr/bin/env python3
"""The ONNX-backend-API adapter: ONNX Mul/Div 1, 6, 7, 13, 14 through any Python module that
implements ONNX's backend API (onnx.backend.base.Backend: prepare, run; supports_device and
is_compatible when it has them), the interface ONNX's own backend test runner drives. The module
is named on the command line (default onnxruntime.backend):

    eltwise-validate run --backend onnx-backend-api                        # onnxruntime.backend
    eltwise-validate run --backend-cmd "python onnx_backend_api.py my_runtime.backend"

Each request becomes the adapter kit's one-node ModelProto (eltwise_adapter_kit.onnx_model, in
the request's graph form); backend.prepare(model, device="CPU") gives a BackendRep, whose
run(inputs) gives the outputs. The backend decides everything; the API has no error classes, so
a failure to prepare is `rejected` (the backend refused the model) unless it says it is not
implemented (`unsupported`), and a failure to run is `error`.
"""
import importlib
import importlib.metadata
import re
import sys

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import onnx_model

kit.protect_stdout()  # before the backend's library is loaded

import numpy as np  # noqa: E402

MODULE = sys.argv[1] if len(sys.argv) > 1 else "onnxruntime.backend"
backend = importlib.import_module(MODULE)
DEVICE = "CPU"
NOT_IMPLEMENTED = re.compile(r"[Nn]ot implemented|NOT_IMPLEMENTED|[Nn]ot supported|"
                             r"[Uu]nsupported|Could not find an implementation")
SHAPE_ERROR = re.compile(r"broadcast", re.IGNORECASE)  # run-time refusals of the dynamic form
_reps = kit.ModelCache()


def version():
    """The version of the distribution that provides the module (its top-level package)."""
    top = MODULE.split(".")[0]
    try:
        return importlib.metadata.version(top)
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(importlib.import_module(top), "__version__", "unknown"))


def prepare(request):
    model = onnx_model.build(request)
    if hasattr(backend, "is_compatible") and not backend.is_compatible(model, device=DEVICE):
        raise kit.Unsupported(f"{MODULE}.is_compatible says no to this model")
    try:
        return backend.prepare(model, device=DEVICE)
    except NotImplementedError as e:
        raise kit.Unsupported(kit.message(e)) from None
    except Exception as e:  # noqa: BLE001  the backend refused the model
        text = kit.message(e)
        raise (kit.Unsupported(text) if NOT_IMPLEMENTED.search(text) else kit.Rejected(text)) \
            from None


def evaluate(request):
    onnx_model.parse_op(request["op"])  # OpenVINO ops are not ONNX: unsupported
    rep = _reps.get(onnx_model.cache_key(request), lambda: prepare(request))
    inputs = [onnx_model.to_onnx_array(kit.load_input(t), t["dtype"])
              for _, t in onnx_model.runtime_inputs(request)]
    try:
        outputs = rep.run(inputs)
    except Exception as e:  # noqa: BLE001
        raise onnx_model.run_failure(request, kit.message(e), SHAPE_ERROR) from None
    return np.asarray(outputs[0])


def hello():
    if hasattr(backend, "supports_device") and not backend.supports_device(DEVICE):
        raise SystemExit(f"{MODULE} does not support device {DEVICE}")
    return kit.hello(f"onnx-backend-api:{MODULE}", version(), onnx_model.claims(),
                     onnx_model.GRAPH_FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
