#!/usr/bin/env python3
"""The OpenVINO adapter: openvino.Multiply-1 and openvino.Divide-1 on OpenVINO's own opset1
Multiply / Divide, run by the OpenVINO runtime's CPU plugin through its Python API.
README.md has the mapping.

    eltwise-validate run --backend-cmd \
        ".venv/bin/python backends/adapters/openvino/openvino_backend.py"

Per request: a one-node ov.Model (two opset1 Parameters with the request's element types and
static shapes, one opset1 Multiply or Divide made by OpenVINO's NodeFactory with the request's
attributes), compiled for "CPU" and run once. OpenVINO judges types, shapes and attribute values
itself; its errors while building or compiling the model are answered `rejected`, errors while
running a built model `error`. The protocol loop, input loading and output writing are the
adapter kit's (backends/kit/python). Graph forms (request field graph_form): opset1 Constants in
place of Parameters (const-a, const-b, const-ab), or Parameters with dynamic dims (dynamic).
"""
import re

import eltwise_adapter_kit as kit

kit.protect_stdout()  # the OpenVINO runtime may write to fd 1 by itself

import numpy as np  # noqa: E402
import openvino as ov  # noqa: E402
from openvino.utils.node_factory import NodeFactory  # noqa: E402

Rejected = kit.Rejected  # no reason: OpenVINO's errors do not say the class

# The table's OpenVINO op versions -> their opset1 op names (Multiply, Divide).
OPS = {op: row["name"] for op, row in kit.OPS.items() if row["domain"] == "openvino"}
OV_TYPES = {"i8": ov.Type.i8, "i16": ov.Type.i16, "i32": ov.Type.i32, "i64": ov.Type.i64,
            "u8": ov.Type.u8, "u16": ov.Type.u16, "u32": ov.Type.u32, "u64": ov.Type.u64,
            "f16": ov.Type.f16, "bf16": ov.Type.bf16, "f32": ov.Type.f32, "f64": ov.Type.f64,
            "boolean": ov.Type.boolean}  # boolean: only ever in invalid cases, OpenVINO refuses it
TYPE_NAMES = {t.get_type_name(): name for name, t in OV_TYPES.items()}
# The CPU plugin compiles and runs all twelve numeric types for both ops (README.md says in
# which precision it really computes them).
CLAIMS = {op: [t for t in kit.OPS[op]["element_types"] if t in OV_TYPES] for op in OPS}
# Attribute names as the attribute visitor of opset1 Multiply/Divide knows them: the pdpd axis is
# a member of the AutoBroadcastSpec structure "auto_broadcast" (the IR serializer writes it as
# auto_broadcast.auto_broadcast_axis too).
AXIS_KEY = "auto_broadcast.auto_broadcast_axis"
_INT = re.compile(r"[+-]?[0-9]+")
_BOOLS = {"true": True, "false": False, "1": True, "0": False}

# Graph forms (README.md, "Graph forms"): const-* as opset1 Constant nodes, dynamic as Parameters
# whose every dimension is dynamic; const-ab is a model without Parameters (OpenVINO compiles it).
FORMS = ("const-a", "const-b", "const-ab", "dynamic")

core = ov.Core()
factory = NodeFactory("opset1")
compiled = kit.ModelCache()  # key -> (compiled model, its infer request)


def encode_attributes(op, attributes):
    """The request's attributes as NodeFactory takes them. Only what cannot be written in the
    attribute's C++ type at all is refused here; OpenVINO judges every value it can hold."""
    encoded = {}
    for name, text in attributes.items():
        if name == "pythondiv":  # the spec text's name; OpenVINO's attribute is m_pythondiv
            name = "m_pythondiv"
        if name in encoded:
            raise Rejected(f"{op}: attribute {name} is given twice")
        if name == "auto_broadcast_axis":
            if not _INT.fullmatch(text) or not -2**63 <= int(text) < 2**63:
                raise Rejected(f"{op}: auto_broadcast_axis={text!r} is not an int64")
            encoded[AXIS_KEY] = int(text)
        elif name == "m_pythondiv":
            if text.lower() not in _BOOLS:
                raise Rejected(f"{op}: m_pythondiv={text!r} is not a bool")
            encoded[name] = _BOOLS[text.lower()]
        else:  # auto_broadcast (OpenVINO parses the text) and names OpenVINO may not know
            encoded[name] = text
    return encoded


def ov_type(info):
    if info["dtype"] not in OV_TYPES:
        raise Rejected(f"unknown element type {info['dtype']!r}")
    return OV_TYPES[info["dtype"]]


def input_node(info, name, form, value):
    """A or B as the form has it: a Constant holding `value` (an ov.Tensor, copied), or a
    Parameter with the exact shape (runtime) or every dimension dynamic (dynamic, same rank)."""
    if value is not None:
        return ov.op.Constant(value, shared_memory=False)
    shape = ov.PartialShape([-1] * len(info["shape"])) if form == "dynamic" else info["shape"]
    return ov.opset1.parameter(shape, ov_type(info), name=name)


def compile_model(request, form="runtime"):
    """The compiled one-node model of a request, from the cache or built now. Raises Rejected
    with OpenVINO's message if OpenVINO refuses to build or compile it. Models holding
    constants are not cached (their values are part of the model)."""
    op, a, b = request["op"], request["a"], request["b"]
    if op not in OPS:
        raise kit.Unsupported(f"this backend does not implement {op}")
    attributes = encode_attributes(op, request.get("attributes", {}))
    key = kit.cache_key(request, form, tuple(sorted(attributes.items())))
    return compiled.get(key, lambda: build_model(request, form, attributes))


def build_model(request, form, attributes):
    """Builds and compiles the one-node model; OpenVINO's refusal is Rejected."""
    op, a, b = request["op"], request["a"], request["b"]
    const_a, const_b = kit.constant_inputs(form)
    ov_type(a), ov_type(b)  # an unknown type name is refused before the files are read
    value_a = to_tensor(a) if const_a else None  # a bad file is an error, not a rejection
    value_b = to_tensor(b) if const_b else None
    try:
        na = input_node(a, "A", form, value_a)
        nb = input_node(b, "B", form, value_b)
        node = factory.create(OPS[op], [na.output(0), nb.output(0)], attributes)
        parameters = [n for n, c in ((na, const_a), (nb, const_b)) if not c]
        model = ov.Model([node], parameters, "eltwise")
        model_compiled = core.compile_model(model, "CPU")
    except Rejected:
        raise
    except Exception as e:  # OpenVINO's check of types, shapes or attributes
        raise Rejected(kit.message(e)) from None
    return model_compiled, model_compiled.create_infer_request()


def to_tensor(info):
    """An ov.Tensor over the input's memory (bf16 arrives as raw uint16 bits). The tensor
    shares the array's memory: the caller keeps it alive until the inference has run."""
    array = np.require(kit.load_input(info), requirements="C")  # 0-d stays 0-d
    return ov.Tensor(array, list(array.shape), OV_TYPES[info["dtype"]])


def evaluate(request):
    """Runs the request's model; errors while running a model OpenVINO accepted are `error`."""
    form = kit.graph_form(request, FORMS)
    _, infer = compile_model(request, form)
    const_a, const_b = kit.constant_inputs(form)
    inputs = [to_tensor(request[k]) for k, c in (("a", const_a), ("b", const_b)) if not c]
    for i, tensor in enumerate(inputs):
        infer.set_input_tensor(i, tensor)
    try:
        infer.infer()
    except Exception as e:
        # dynamic: the shapes meet only here; a refusal by OpenVINO's shape inference (its
        # message names src/.../shape_inference/) is a refusal of the inputs, as at build time
        if form == "dynamic" and "shape_inference" in str(e):
            raise Rejected(kit.message(e)) from None
        raise
    output = infer.get_output_tensor(0)
    # bf16 memory shows as float16 in the Python API: the label makes the kit write its bits,
    # straight from the tensor's memory, into the validator's region when offered
    return kit.Output(output.data, TYPE_NAMES[output.get_element_type().get_type_name()])


def hello():
    return kit.hello("openvino", ov.get_version(), CLAIMS, FORMS)


if __name__ == "__main__":
    kit.serve(lambda request: kit.answer(request, evaluate), hello())
