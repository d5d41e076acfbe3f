"""The one-node ONNX model of a request, built with the `onnx` package's helper API: what a
user of an ONNX library writes to run one Mul or Div. Needs `onnx` and `ml_dtypes`
(pip install "eltwise-adapter-kit[onnx]").

- opset_import = {"": N} for onnx.Mul-N / onnx.Div-N; ir_version = the smallest IR version that
  onnx.helper's VERSION_TABLE gives for that opset (find_min_ir_version_for): IR 3 for opsets 1,
  6 and 7, IR 7 for 13 and 14.
- Inputs A and B with the request's element types (boolean too) and static shapes; output C with
  A's element type and one symbolic dim per dim of the larger input ("C0", "C1", ...): a graph
  output needs a `shape` field to pass onnx.checker, and the model leaves the dims to the
  library (a converter that knows only the ranks writes the same).
- Attributes as the request gives them: `broadcast` and `axis` as INT, `consumed_inputs` as INTS
  (text "0,1"); any other name is passed too (INT if its text is an integer, else STRING), so the
  library judges it. The only check of our own: the text of an INT/INTS attribute must be an
  int64, since it cannot be written into the model otherwise (Rejected).
- Graph forms: "runtime" as above; "const-a", "const-b", "const-ab": that input is a graph
  initializer holding the .npy's values (numpy_helper.from_array; bf16's raw bits viewed as
  ml_dtypes.bfloat16) and not a graph input, and the model's ir_version is at least 4 (IR 3
  allows initializers only as default values of graph inputs); "dynamic": A and B are inputs of
  the same rank whose dims are all symbolic ("A0", "A1", ..., "B0", ...).

The rejections raised here carry no reason: the library, not this builder, judges the inputs.
"""
import re

import ml_dtypes
import onnx
from onnx import TensorProto, helper, numpy_helper

from . import graph_forms, op_table, tensors
from .answers import Failed, Rejected, Unsupported

# Suite type name -> ONNX element type (boolean: for invalid cases, which the library rejects).
ELEMENT_TYPES = {"i8": TensorProto.INT8, "i16": TensorProto.INT16, "i32": TensorProto.INT32,
                 "i64": TensorProto.INT64, "u8": TensorProto.UINT8, "u16": TensorProto.UINT16,
                 "u32": TensorProto.UINT32, "u64": TensorProto.UINT64,
                 "f16": TensorProto.FLOAT16, "bf16": TensorProto.BFLOAT16,
                 "f32": TensorProto.FLOAT, "f64": TensorProto.DOUBLE, "boolean": TensorProto.BOOL}
INT_ATTRIBUTES = {"broadcast", "axis"}
INTS_ATTRIBUTES = {"consumed_inputs"}
_INTEGER = re.compile(r"-?[0-9]+")
ONNX_OPS = {op: row for op, row in op_table.OPS.items() if row["domain"] == "onnx"}
# Graph form -> the inputs that are constants of the graph (initializers).
CONSTANTS = {"runtime": "", "const-a": "A", "const-b": "B", "const-ab": "AB", "dynamic": ""}
GRAPH_FORMS = list(CONSTANTS)


def claims():
    """Every (ONNX op version, type) the table allows: the report then shows what the library
    refuses. OpenVINO op versions are not ONNX ops."""
    return {op: list(row["element_types"]) for op, row in ONNX_OPS.items()}


def parse_op(op):
    """'onnx.Div-13' -> ('Div', 13); an op version that is not ONNX's is Unsupported."""
    if op not in ONNX_OPS:
        raise Unsupported(f"{op} is not an ONNX op version this adapter maps")
    return ONNX_OPS[op]["name"], ONNX_OPS[op]["version"]


def _int64(name, text):
    if not _INTEGER.fullmatch(text) or not -2**63 <= int(text) < 2**63:
        raise Rejected(f"attribute {name}={text!r} is not an int64: it cannot be written into "
                       "an ONNX model")
    return int(text)


def attribute(name, text):
    """The AttributeProto for one request attribute, typed as described in the docstring."""
    if name in INTS_ATTRIBUTES:
        items = [_int64(name, t.strip()) for t in text.split(",")] if text.strip() else []
        return helper.make_attribute(name, items, attr_type=onnx.AttributeProto.INTS)
    if name in INT_ATTRIBUTES or _INTEGER.fullmatch(text):
        return helper.make_attribute(name, _int64(name, text), attr_type=onnx.AttributeProto.INT)
    return helper.make_attribute(name, text, attr_type=onnx.AttributeProto.STRING)


def element_type(dtype):
    if dtype not in ELEMENT_TYPES:
        raise Rejected(f"unknown element type {dtype!r}")
    return ELEMENT_TYPES[dtype]


def graph_form(request):
    """The request's graph form ("runtime" when absent); every form is built here."""
    return graph_forms.graph_form(request, GRAPH_FORMS)


def runtime_inputs(request):
    """(name, tensor) of the inputs fed at run time in the request's graph form."""
    constants = CONSTANTS[graph_form(request)]
    return [(n, request[n.lower()]) for n in "AB" if n not in constants]


def to_onnx_array(array, dtype):
    """An input as ONNX's numpy world holds it: bf16's raw bits viewed as ml_dtypes.bfloat16."""
    return array.view(ml_dtypes.bfloat16) if dtype == "bf16" else array


def _initializer(name, tensor):
    array = to_onnx_array(tensors.load_input(tensor), tensor["dtype"])
    return numpy_helper.from_array(array, name)


def build(request):
    """The ModelProto of C = Op(A, B) for one request, in its graph form."""
    op_type, version = parse_op(request["op"])
    form = graph_form(request)
    a, b = request["a"], request["b"]
    types = {"A": element_type(a["dtype"]), "B": element_type(b["dtype"])}
    node = helper.make_node(op_type, ["A", "B"], ["C"])
    node.attribute.extend(attribute(name, str(text))
                          for name, text in request.get("attributes", {}).items())
    inputs = [helper.make_tensor_value_info(
        n, types[n], [f"{n}{i}" for i in range(len(t["shape"]))] if form == "dynamic"
        else t["shape"]) for n, t in runtime_inputs(request)]
    initializers = [_initializer(n, request[n.lower()]) for n in CONSTANTS[form]]
    rank = max(len(a["shape"]), len(b["shape"]))
    graph = helper.make_graph(
        [node], f"{op_type}-{version}", inputs,
        [helper.make_tensor_value_info("C", types["A"], [f"C{i}" for i in range(rank)])],
        initializer=initializers)
    opset = helper.make_opsetid("", version)
    ir_version = helper.find_min_ir_version_for([opset])
    return helper.make_model(graph, opset_imports=[opset], producer_name="eltwise-validate",
                             ir_version=max(ir_version, 4) if initializers else ir_version)


def cache_key(request):
    """graph_forms.cache_key for the request's form: None for a model with constants."""
    return graph_forms.cache_key(request, graph_form(request))


def run_failure(request, text, shape_error):
    """What the library's failure while running means. In the dynamic form the model leaves the
    shapes to run time, so the library checks them only then: a failure whose text matches its
    shape check (`shape_error`) is its verdict on the inputs (Rejected, as the model's check is
    in the other forms). Anything else is Failed (`error`). Opsets 1 and 6 broadcast by their
    `broadcast`/`axis` attributes, which the model's check does not know either: their failures
    stay Failed in every form."""
    legacy = parse_op(request["op"])[1] < 7
    if graph_form(request) == "dynamic" and not legacy and shape_error.search(text):
        return Rejected(text)
    return Failed(text)
