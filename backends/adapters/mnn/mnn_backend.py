#!/usr/bin/env python3
"""The MNN adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on Alibaba's MNN (PyPI MNN),
through its expression API MNN.expr on the CPU backend: F.multiply; F.divide (true division for
f32, truncating division for i32); F.floordiv for Divide-1 with m_pythondiv=true on i32.
MNN.expr computes f32 and i32 only (its int64 and double dtypes are stored as int32 and float,
its uint8 binary ops kill the process, int8 is a quantized type): README.md, "Element types".

    eltwise-validate run --backend-cmd ".venv/bin/python backends/adapters/mnn/mnn_backend.py"

The checks of each op version and the lowering of ONNX legacy and pdpd broadcasting (reshape B)
are the adapter kit's (backends/kit/python); numpy broadcasting and its shape check are MNN's.
Graph forms: runtime inputs are F.placeholder vars written before the read; const-a, const-b,
const-ab make those inputs F.const vars.
"""
import eltwise_adapter_kit as kit

kit.protect_stdout()  # before MNN is loaded: it prints its CPU features at import

import MNN  # noqa: E402
import MNN.expr as F  # noqa: E402
import numpy as np  # noqa: E402

MNN_TYPES = {"f32": (F.float, np.float32), "i32": (F.int, np.int32)}
FORMS = ("const-a", "const-b", "const-ab")


def leave_to_mnn(a, b):
    """numpy broadcasting is MNN's own: its shape inference judges the shapes (evaluate)."""


def to_var(array, dtype, constant):
    """An F.const (a constant of the expression) or a placeholder written with the values."""
    mnn_type, np_type = MNN_TYPES[dtype]
    array = np.require(array, np_type, "C")  # keeps rank 0 (ascontiguousarray would not)
    if constant:
        return F.const(array, list(array.shape), F.NCHW, mnn_type)
    var = F.placeholder(list(array.shape), F.NCHW, mnn_type)
    var.write(array)
    return var


def function(plan):
    """The MNN.expr function of a planned request."""
    if not kit.is_division(plan.op):
        return F.multiply
    if plan.dtype == "i32" and plan.floor:  # Divide-1 with m_pythondiv=true
        return F.floordiv
    return F.divide  # f32: true division; i32: truncates toward zero (BinaryRealDiv, x / y)


def read(result):
    """The result, copied: read() gives a view of MNN's buffer, which the next expression
    computed may overwrite."""
    if result.shape is None:  # shape inference failed; MNN printed why ("Broad cast error")
        raise kit.Rejected("MNN could not infer the output shape (its message, on stderr: "
                           "\"Broad cast error, dim1 = ..., dim2 = ...\")", "shape")
    if 0 in result.shape:
        raise kit.Unsupported(f"MNN cannot read a result without elements (shape "
                              f"{result.shape}): Var.read fails with \"call to readMap meet "
                              f"a error\"")
    return np.array(result.read(), copy=True).reshape(result.shape)


def evaluate(request):
    form = kit.graph_form(request, FORMS)
    if request["a"]["dtype"] not in MNN_TYPES:
        # Only invalid cases of a type MNN.expr lacks are sent: MNN cannot judge them, the
        # kit's checks (numpy's broadcast rule included) do.
        kit.plan(request)
        raise kit.Unsupported(f"MNN.expr has no {request['a']['dtype']} arithmetic")
    const_a, const_b = kit.constant_inputs(form)
    plan, a, b = kit.load_planned(request, leave_to_mnn)
    x = to_var(a, plan.dtype, const_a)
    y = to_var(b, plan.dtype, const_b)
    return read(function(plan)(x, y))


def hello():
    ops = kit.claims(MNN_TYPES, truncating_division=True)
    return kit.hello("mnn", MNN.version(), ops, FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
