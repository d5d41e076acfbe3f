"""eltwise-adapter-kit: what a Python adapter of eltwise-validate's backend protocol
(eltwise-backend/1, backends/PROTOCOL.md) needs besides its library. An adapter is one file:

    import eltwise_adapter_kit as kit
    kit.protect_stdout()                    # before the library is imported
    import mylib

    def evaluate(request):
        # the op version's checks and legacy/pdpd lowering; numpy broadcasting left to mylib
        plan, a, b = kit.load_planned(request, kit.left_to_library)
        try:
            return mylib.multiply(a, b)          # an array; kit.Output(bits, "bf16") for bf16
        except mylib.ShapeError as e:            # the library refusing the shapes
            raise kit.Rejected(str(e)) from None

    kit.serve(lambda r: kit.answer(r, evaluate),
              kit.hello("mylib", mylib.__version__, kit.claims(TYPES, True)))

Modules: protocol (hello, serve, protect_stdout), answers (answer, Rejected, Unsupported,
Failed, Output), tensors (.npy inputs and outputs, the output region, bf16 bits), op_table (the
op-version table), checks and lowering (a converter's checks and broadcast lowering),
graph_forms, model_cache, onnx_model (one-node ONNX models; needs onnx), output_comparison
(same_outputs: the judge's rule, same bits or both NaN), example (the numpy adapter), smoke
(eltwise-adapter-smoke: a first check of an adapter without the validator).
"""
from .answers import Failed, Output, Rejected, Unsupported, answer, compiled, message
from .checks import left_to_library
from .graph_forms import cache_key, constant_inputs, graph_form, with_constants
from .lowering import Plan, load_planned, plan
from .model_cache import ModelCache
from .op_table import OPS, claims, is_division, truncates
from .output_comparison import same_elements, same_outputs
from .protocol import PROTOCOL, hello, protect_stdout, serve
from .tensors import NUMPY_TYPES, load_input

__all__ = ["Failed", "Output", "Rejected", "Unsupported", "answer", "compiled", "message", "cache_key",
           "constant_inputs", "graph_form", "with_constants", "left_to_library", "Plan", "load_planned", "plan",
           "ModelCache", "OPS", "claims", "is_division", "truncates", "same_elements", "same_outputs",
           "PROTOCOL", "hello", "protect_stdout", "serve", "NUMPY_TYPES", "load_input"]
