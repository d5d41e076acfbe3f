"""The checks of an op version, in the reference's order (types, then attributes, then shapes;
docs/SEMANTICS.md): each failure raises Rejected with the protocol's reason for it. An adapter
runs them where its library has no check of its own (a converter's checks, before the call).
"""
import re

import numpy as np

from . import op_table
from .answers import Rejected, Unsupported

_INTEGER = re.compile(r"-?[0-9]+")


def check_types(op, a, b):
    """Rejects boolean, mixed and disallowed element types."""
    if "boolean" in (a, b):
        raise Rejected(f"{op}: arguments cannot have boolean element type", "type")
    if a != b:
        raise Rejected(f"{op}: A is {a} but B is {b}; both must have the same type", "type")
    if a not in op_table.ELEMENT_TYPES[op]:
        raise Rejected(f"{op} does not allow element type {a}", "type")


def _bad(op, name, text):
    raise Rejected(f"{op}: attribute {name}={text!r} is invalid", "attribute")


def attribute_value(op, spec, text):
    """The checked value of one attribute of ONNX 7+ / OpenVINO, as text; `spec` is its row in
    the table."""
    value = text.lower()  # the specs' enum and bool values are case-insensitive
    kind = spec["type"]
    if kind == "string":
        ok = value in spec["allowed"]
    elif kind == "int":
        ok = (_INTEGER.fullmatch(value) is not None
              and spec.get("minimum", -2**63) <= int(value) < 2**63)
    elif kind == "bool":
        ok = value in ("true", "false", "1", "0")
        value = {"1": "true", "0": "false"}.get(value, value)
    else:
        raise Unsupported(f"{op}: attribute {spec['name']} has type {kind}, unknown here")
    if not ok:
        _bad(op, spec["name"], text)
    return value


def resolve_attributes(op, attributes):
    """ONNX 7+ and OpenVINO: returns (broadcast rule, floor division?) after checking every
    attribute (aliases, repeats, values)."""
    specs = {a["name"]: a for a in op_table.OPS[op]["attributes"]}
    aliases = {s["alias"]: name for name, s in specs.items() if "alias" in s}
    values, given = {name: s["default"] for name, s in specs.items()}, set()
    for key, text in attributes.items():
        name = aliases.get(key, key)
        if name not in specs:
            raise Rejected(f"{op} has no attribute {key!r}", "attribute")
        if name in given:
            raise Rejected(f"{op}: attribute {name} is given twice", "attribute")
        values[name] = attribute_value(op, specs[name], text)
        given.add(name)
    return values.get("auto_broadcast", "numpy"), values.get("m_pythondiv") == "true"


def _legacy_value(op, spec, text):
    """One checked attribute value of ONNX Mul/Div-1/6 (int, or None for consumed_inputs)."""
    value, name = text.lower(), spec["name"]
    if spec["type"] == "ints":  # consumed_inputs: ignored by the spec, only its syntax is checked
        if value and not all(_INTEGER.fullmatch(v) for v in value.split(",")):
            _bad(op, name, text)
        return None
    if not _INTEGER.fullmatch(value) or not -2**63 <= int(value) < 2**63:
        _bad(op, name, text)
    if "allowed" in spec and int(value) not in {int(v) for v in spec["allowed"]}:
        _bad(op, name, text)
    if int(value) < spec.get("minimum", -2**63):
        _bad(op, name, text)
    return int(value)


def legacy_attributes(op, attributes):
    """ONNX Mul/Div-1/6: returns (broadcast, axis or None) after checking every attribute."""
    specs = {a["name"]: a for a in op_table.OPS[op]["attributes"]}
    values = {}
    for name, text in attributes.items():
        if name not in specs:
            raise Rejected(f"{op} has no attribute {name!r}", "attribute")
        values[name] = _legacy_value(op, specs[name], text)
    return values.get("broadcast", 0) == 1, values.get("axis")


def shape_error(a, b, rule, why):
    raise Rejected(f"cannot broadcast A {list(a)} with B {list(b)} under {rule}: {why}", "shape")


def left_to_library(a, b):
    """No shape check: `check_numpy` for a library that checks numpy broadcasting itself, whose
    error the adapter maps to Rejected around the call (backends/PROTOCOL.md section 13, "leave
    validity to the library")."""


def numpy_broadcast(a, b):
    """numpy's broadcasting check, with its message: the default check of numpy-like libraries
    (pass the library's own, e.g. torch.broadcast_shapes, to quote its message)."""
    try:
        np.broadcast_shapes(a, b)
    except ValueError as e:
        raise Rejected(str(e), "shape") from None
