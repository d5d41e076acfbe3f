#!/usr/bin/python3
"""An eltwise-backend/1 backend in Python + numpy: the worked example of backends/PROTOCOL.md.

Run it under the validator:
    eltwise-validate run --backend-cmd "/usr/bin/python3 backends/examples/numpy_backend.py"

It claims only what numpy computes exactly as the specs say: no bf16 (numpy has no such type),
no signed integer division that truncates (numpy only floors), no pdpd broadcasting. Invalid
inputs are answered `rejected`, valid ones it cannot compute `unsupported`.
The test backends in backends/test_backends/ import this module and wrap its functions.
"""
import io
import json
import mmap
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import op_table  # noqa: E402  (core/op_table.json: the op versions, their types and attributes)

PROTOCOL = "eltwise-backend/1"
NUMPY_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
               "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
               "f16": np.float16, "f32": np.float32, "f64": np.float64}
FILE_TYPES = {**NUMPY_TYPES, "bf16": np.uint16, "boolean": np.bool_}  # bf16: raw '<u2' bits

# The op versions this example serves, with the element types and attributes each allows: all
# of the table except ONNX Mul/Div-1 and -6, whose legacy `broadcast`/`axis` attributes are not
# implemented here (backends/adapters/numpy/converter.py adds them).
def is_legacy(op):
    return any(a["name"] == "broadcast" for a in op_table.OPS[op]["attributes"])


ALLOWED = {op: types for op, types in op_table.ELEMENT_TYPES.items() if not is_legacy(op)}
# op -> attribute name -> its row in the table (type, default, allowed / minimum, alias)
ATTRIBUTES = {op: {a["name"]: a for a in op_table.OPS[op]["attributes"]} for op in ALLOWED}


class Rejected(Exception):
    """The inputs are invalid for the op version: the right answer is `rejected`."""

    def __init__(self, kind, message):  # kind: "type", "attribute" or "shape"
        super().__init__(message)
        self.kind = kind


class Unsupported(Exception):
    """Valid inputs that numpy cannot compute as the spec says."""


def is_division(op):
    return op.startswith(("onnx.Div-", "openvino.Divide-"))


def truncates(op, dtype):
    """ONNX Div truncates signed integer quotients toward zero; numpy has only floor."""
    return op.startswith("onnx.Div-") and dtype.startswith("i")


def claims():
    return {op: [t for t in types if t in NUMPY_TYPES and not truncates(op, t)]
            for op, types in ALLOWED.items()}


def hello():
    return {"protocol": PROTOCOL, "name": "numpy", "version": np.__version__, "ops": claims(),
            "output_region": True}


def check_types(op, a, b, allowed=None):
    """Rejects boolean, mixed and disallowed types (`allowed`: op -> types, default ALLOWED)."""
    if "boolean" in (a, b):
        raise Rejected("type", f"{op}: arguments cannot have boolean element type")
    if a != b:
        raise Rejected("type", f"{op}: A is {a} but B is {b}; both must have the same type")
    if a not in (allowed or ALLOWED)[op]:
        raise Rejected("type", f"{op} does not allow element type {a}")


def attribute_value(op, spec, text):
    """The checked value of one attribute, as text; `spec` is its row in the table."""
    value = text.lower()  # the specs' enum and bool values are case-insensitive
    kind = spec["type"]
    if kind == "string":
        ok = value in spec["allowed"]
    elif kind == "int":
        ok = (re.fullmatch(r"-?[0-9]+", value) is not None
              and spec.get("minimum", -2**63) <= int(value) < 2**63)
    elif kind == "bool":
        ok = value in ("true", "false", "1", "0")
        value = {"1": "true", "0": "false"}.get(value, value)
    else:
        raise Unsupported(f"{op}: attribute {spec['name']} has type {kind}, unknown here")
    if not ok:
        raise Rejected("attribute", f"{op}: attribute {spec['name']}={text!r} is invalid")
    return value


def resolve_attributes(op, attributes):
    """Returns (broadcast rule, floor division?) after checking every attribute."""
    specs = ATTRIBUTES.get(op, {})  # the ONNX versions from 7 on take no attributes
    aliases = {s["alias"]: name for name, s in specs.items() if "alias" in s}
    values, given = {name: s["default"] for name, s in specs.items()}, set()
    for key, text in attributes.items():
        name = aliases.get(key, key)
        if name not in specs:
            raise Rejected("attribute", f"{op} has no attribute {key!r}")
        if name in given:
            raise Rejected("attribute", f"{op}: attribute {name} is given twice")
        values[name] = attribute_value(op, specs[name], text)
        given.add(name)
    return values.get("auto_broadcast", "numpy"), values.get("m_pythondiv") == "true"


def check_shapes(rule, a_shape, b_shape):
    if rule == "pdpd":
        raise Unsupported("numpy has no pdpd broadcasting")
    if rule == "none" and a_shape != b_shape:
        raise Rejected("shape", f"auto_broadcast=none needs equal shapes: {a_shape}, {b_shape}")
    try:
        np.broadcast_shapes(a_shape, b_shape)
    except ValueError as e:
        raise Rejected("shape", str(e)) from None


def load_input(tensor):
    """Loads one input and checks that the file says what the request says."""
    array = np.load(tensor["path"], allow_pickle=False)
    expected = np.dtype(FILE_TYPES[tensor["dtype"]])
    if array.dtype != expected or list(array.shape) != tensor["shape"]:
        raise ValueError(f"{tensor['path']} holds {array.dtype} {list(array.shape)}, the request "
                         f"says {tensor['dtype']} {tensor['shape']}")
    return array


def compute(op, dtype, floor, a, b):
    """The element-wise result; `floor` picks floor or truncating integer division."""
    if dtype not in NUMPY_TYPES:
        raise Unsupported(f"numpy has no {dtype}")
    # Division by zero, overflow and NaN are expected in test data: numpy's warnings are noise.
    with np.errstate(all="ignore"):
        if not is_division(op):
            return np.multiply(a, b)  # integers wrap modulo 2^N, floats round to nearest even
        if dtype.startswith("f"):
            # f16: numpy divides in f32, then rounds to f16; that double rounding is
            # innocuous (24 >= 2 * 11 + 2 bits): the result is correctly rounded.
            return np.divide(a, b)
        if floor or dtype.startswith("u"):  # unsigned: floor and truncation agree
            return np.floor_divide(a, b)
    raise Unsupported("numpy has no truncating integer division (only floor_divide)")


def evaluate(request, compute=compute):
    """Checks the request like the spec does, in its order, and returns the result array."""
    op, a_info, b_info = request["op"], request["a"], request["b"]
    if op not in ALLOWED:
        raise Unsupported(f"this backend does not implement {op}")
    check_types(op, a_info["dtype"], b_info["dtype"])
    rule, floor = resolve_attributes(op, request.get("attributes", {}))
    check_shapes(rule, tuple(a_info["shape"]), tuple(b_info["shape"]))
    return compute(op, a_info["dtype"], floor, load_input(a_info), load_input(b_info))


def save_output(path, result):
    """Writes .npy v1.0, C order, little-endian, to `path` exactly (np.save(str) adds .npy).
    Returns what it wrote."""
    result = np.asarray(result, dtype=result.dtype.newbyteorder("<"), order="C")
    with open(path, "wb") as f:
        np.save(f, result, allow_pickle=False)
    return result


class OutputRegion:
    """The validator's shared memory for outputs (PROTOCOL.md section 9, item 17), kept mapped
    while requests name the same path and size."""

    def __init__(self):
        self.key, self.map = None, None

    def get(self, offer):
        key = (offer["path"], offer["bytes"])
        if key != self.key:
            if self.map is not None:
                self.map.close()
            self.key, self.map = None, None
            with open(offer["path"], "r+b") as f:  # never "wb": the region's size is sealed
                self.map = mmap.mmap(f.fileno(), offer["bytes"])
            self.key = key
        return self.map


REGION = OutputRegion()


def npy_preamble(array):
    """Magic, version and header of a .npy v1.0 for `array` (numpy pads it to 64 bytes)."""
    f = io.BytesIO()
    np.lib.format.write_array_header_1_0(f, np.lib.format.header_data_from_array_1_0(array))
    return f.getvalue()


def write_output(request, result):
    """Writes the output where the validator reads it fastest: into the shared region that the
    request offers (PROTOCOL.md section 9, item 17) when the whole .npy fits there, else to the
    file `out`. Returns (what was written, whether it went to the region)."""
    offer = request.get("out_region")
    # np.asarray keeps a 0-d array 0-d (np.ascontiguousarray would make it 1-d)
    result = np.asarray(result, dtype=result.dtype.newbyteorder("<"), order="C")
    if not isinstance(offer, dict):
        return save_output(request["out"], result), False
    preamble = npy_preamble(result)
    if len(preamble) + result.nbytes > offer["bytes"]:
        return save_output(request["out"], result), False
    try:
        region = REGION.get(offer)
    except OSError:  # the region cannot be opened from here: the file will do
        return save_output(request["out"], result), False
    region[:len(preamble)] = preamble
    np.copyto(np.ndarray(result.shape, result.dtype, buffer=region, offset=len(preamble)), result)
    return result, True


def type_name(dtype):
    return next(name for name, t in NUMPY_TYPES.items() if np.dtype(t) == dtype)


def answer(request, evaluate=evaluate, save=save_output):
    """Runs one request and returns the response object; never raises."""
    response = {"id": request.get("id", -1) if isinstance(request, dict) else -1}
    try:
        result = np.asarray(evaluate(request))  # a 0-d result comes back as a numpy scalar
        if save is save_output:
            written, in_region = write_output(request, result)
        else:
            written, in_region = save(request["out"], result), False
        response.update(status="ok", dtype=type_name(written.dtype))
        if in_region:
            response["in_region"] = True
    except Rejected as e:
        response.update(status="rejected", message=str(e))
        if e.kind in ("shape", "type", "attribute"):  # the protocol's reason classes
            response["reason"] = e.kind
    except Unsupported as e:
        response.update(status="unsupported", message=str(e))
    except Exception as e:  # a bad request or file: say what happened, keep serving
        response.update(status="error", message=f"{type(e).__name__}: {e}")
    return response


def protect_stdout():
    """Keeps stdout for protocol lines alone: the lines go to a private duplicate of fd 1, and
    fd 1 itself is pointed at stderr, so that whatever a library's native code writes to the
    process's stdout cannot reach the validator. Call it before importing the library."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = protocol


def send(message):
    print(json.dumps(message), flush=True)


def serve(respond=answer, greeting=None):
    """The protocol loop: hello, then one answer per request line until stdin closes.
    `respond` returns the response object (None: it has answered by itself)."""
    sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    send(greeting or hello())
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as e:
            send({"id": -1, "status": "error", "message": f"request is not JSON: {e}"})
            continue
        response = respond(request)
        if response is not None:
            send(response)


if __name__ == "__main__":
    serve()
