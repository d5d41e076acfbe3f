"""What a model converter does before it calls a library's element-wise Mul/Div: the checks of
the op version (types, attributes, shapes) and the lowering of broadcast rules the library does
not have to plain numpy broadcasting, by reshaping B (an "unsqueeze" of trailing dims).

Shared by the numpy and torch adapters (backends/adapters/numpy, backends/adapters/torch). It
builds on backends/examples/numpy_backend.py, loaded here once as `example`: its type and
OpenVINO attribute checks, input loading, answer and protocol loop. The op versions, their element
types and attributes are the table's (core/op_table.json, through the example's op_table).

Lowerings (docs/SEMANTICS.md section 3), as onnx-tensorflow's explicit_broadcast and converters of
Paddle models lower them (plus the validity checks those converters leave out):
- ONNX legacy (Mul-1/6, Div-1/6) broadcast=1: B is one element -> B reshaped to a scalar;
  else B must equal A's dims from `axis` (default: aligned to A's end) exactly, and B gets
  rank(A) - axis - rank(B) trailing 1s. broadcast=0: the shapes must be equal.
- OpenVINO pdpd: axis -1 means rank(A) - rank(B); B's trailing 1s are dropped, each B dim must
  equal its A dim or be 1, and B gets trailing 1s up to rank(A).
After the lowering, numpy broadcasting of A with the reshaped B gives exactly A's shape.
"""
import dataclasses
import importlib.util
import os
import re
import sys

_EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                        "numpy_backend.py")


def _load_example():
    """The example is also named numpy_backend.py: load it by path, under its own name."""
    name = "numpy_example_backend"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _EXAMPLE)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


example = _load_example()
Rejected, Unsupported = example.Rejected, example.Unsupported

op_table = example.op_table  # core/op_table.json
# Every op version of the table, with its element types; LEGACY_ALLOWED: the ONNX versions with
# legacy broadcasting (Mul/Div-1 and -6), which the example does not cover.
ALLOWED = dict(op_table.ELEMENT_TYPES)
LEGACY_ALLOWED = {op: types for op, types in ALLOWED.items() if example.is_legacy(op)}
_INTEGER = re.compile(r"-?[0-9]+")


def claims(library_types, truncates):
    """(op version -> types) the library runs: types it has, and for ONNX's truncating
    signed integer division only when it has a truncating division (`truncates`)."""
    return {op: [t for t in types if t in library_types
                 and (truncates or not example.truncates(op, t))]
            for op, types in ALLOWED.items()}


@dataclasses.dataclass
class Plan:
    """A checked request: what to compute, and B's shape after lowering (None: as given)."""
    op: str
    dtype: str
    floor: bool  # integer division floors (Divide-1 with m_pythondiv); else it truncates
    b_shape: tuple = None


def _legacy_value(op, spec, text):
    """One checked attribute value of ONNX Mul/Div-1/6 (int, or None for consumed_inputs);
    `spec` is the attribute's row in the table."""
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


def _bad(op, name, text):
    raise Rejected("attribute", f"{op}: attribute {name}={text!r} is invalid")


def legacy_attributes(op, attributes):
    """ONNX Mul/Div-1/6: returns (broadcast, axis or None) after checking every attribute."""
    specs = {a["name"]: a for a in op_table.OPS[op]["attributes"]}
    values = {}
    for name, text in attributes.items():
        if name not in specs:
            raise Rejected("attribute", f"{op} has no attribute {name!r}")
        values[name] = _legacy_value(op, specs[name], text)
    return values.get("broadcast", 0) == 1, values.get("axis")


def _shape_error(a, b, rule, why):
    raise Rejected("shape", f"cannot broadcast A {list(a)} with B {list(b)} under {rule}: {why}")


def legacy_b_shape(a, b, axis):
    """B's shape for numpy broadcasting under ONNX legacy broadcast=1."""
    rule = f"onnx legacy broadcast=1 axis={axis}"
    if len(b) > len(a):
        _shape_error(a, b, rule, "rank(B) exceeds rank(A)")
    if axis is not None and axis + len(b) > len(a):
        _shape_error(a, b, rule, "B's dims do not fit in A from axis")
    count = 1
    for d in b:
        count *= d
    if count == 1:
        return ()
    start = len(a) - len(b) if axis is None else axis
    if tuple(a[start:start + len(b)]) != tuple(b):
        _shape_error(a, b, rule, "B must equal a contiguous run of A's dims (1s do not stretch)")
    return tuple(b) + (1,) * (len(a) - start - len(b))


def pdpd_b_shape(a, b, axis):
    """B's shape for numpy broadcasting under OpenVINO pdpd with auto_broadcast_axis."""
    rule = f"pdpd axis={axis}"
    if len(b) > len(a):
        _shape_error(a, b, rule, "rank(B) exceeds rank(A)")
    start = len(a) - len(b) if axis == -1 else axis
    kept = list(b)
    while kept and kept[-1] == 1:
        kept.pop()
    if start + len(kept) > len(a):
        _shape_error(a, b, rule, "B's dims (trailing 1s dropped) do not fit in A from axis")
    for i, d in enumerate(kept):
        if d not in (1, a[start + i]):
            _shape_error(a, b, rule, f"B dim {i} ({d}) must equal A dim {start + i} or be 1")
    return tuple(kept) + (1,) * (len(a) - start - len(kept))


def _plan_legacy(op, request, a, b):
    example.check_types(op, request["a"]["dtype"], request["b"]["dtype"], LEGACY_ALLOWED)
    broadcast, axis = legacy_attributes(op, request.get("attributes", {}))
    if not broadcast:
        if a != b:
            _shape_error(a, b, "onnx legacy broadcast=0", "the shapes must be equal")
        return Plan(op, request["a"]["dtype"], False)
    return Plan(op, request["a"]["dtype"], False, legacy_b_shape(a, b, axis))


def plan(request, check_numpy):
    """Checks a request and lowers its broadcast rule. `check_numpy(a, b)` is the library's own
    numpy-broadcast check: it raises Rejected with the library's message."""
    op, a_info, b_info = request["op"], request["a"], request["b"]
    a, b = tuple(a_info["shape"]), tuple(b_info["shape"])
    if op in LEGACY_ALLOWED:
        return _plan_legacy(op, request, a, b)
    if op not in ALLOWED:
        raise Unsupported(f"this backend does not implement {op}")
    example.check_types(op, a_info["dtype"], b_info["dtype"])
    attributes = request.get("attributes", {})
    rule, floor = example.resolve_attributes(op, attributes)
    result = Plan(op, a_info["dtype"], floor)
    if rule == "pdpd":
        axis = int(attributes.get("auto_broadcast_axis", "-1"))
        result.b_shape = pdpd_b_shape(a, b, axis)
    elif rule == "none" and a != b:
        _shape_error(a, b, "auto_broadcast=none", "the shapes must be equal")
    else:
        check_numpy(a, b)
    return result


def load_planned(request, check_numpy, to_library):
    """Checks and lowers a request, then loads both inputs with `to_library(array, dtype)` and
    gives B its lowered shape. Returns (plan, a, b)."""
    plan_ = plan(request, check_numpy)
    a = to_library(example.load_input(request["a"]), plan_.dtype)
    b = to_library(example.load_input(request["b"]), plan_.dtype)
    if plan_.b_shape is not None:
        b = b.reshape(plan_.b_shape)
    return plan_, a, b


def answer_with_bf16(request, evaluate):
    """example.answer for a library whose bf16 results leave as uint16 bits: only the answer's
    dtype says that they are bf16."""
    response = example.answer(request, evaluate=evaluate)
    if response.get("status") == "ok" and request["a"]["dtype"] == "bf16":
        response["dtype"] = "bf16"
    return response


# Graph forms (backends/PROTOCOL.md, issue 20): how the one-node graph gets A and B. "runtime"
# (both fed at run time, exact shapes) is the default of a request without "graph_form".
def graph_form(request, built):
    """The request's graph form; one the adapter does not build (`built`: the forms its hello
    lists) is answered `unsupported`, never run as another form."""
    form = request.get("graph_form", "runtime")
    if form == "runtime" or form in built:
        return form
    forms = ", ".join(["runtime"] + [f for f in built if f != "runtime"])
    raise Unsupported(f"graph form {form!r} is not built by this backend (it builds: {forms})")


def constant_inputs(form):
    """(A is a constant of the graph, B is a constant of the graph) for a graph form."""
    return form in ("const-a", "const-ab"), form in ("const-b", "const-ab")


def with_constants(compile, f, a, b, form):
    """f(a, b) with the form's constant inputs closed over by the function `compile` builds (a
    jit or graph compiler), so that the library sees them as constants; None for a form without
    constants."""
    const_a, const_b = constant_inputs(form)
    if const_a and const_b:
        return compile(lambda: f(a, b))()
    if const_a:
        return compile(lambda y: f(a, y))(b)
    if const_b:
        return compile(lambda x: f(x, b))(a)
    return None


def with_graph_forms(greeting, built):
    """The hello with its "graph_forms" field (runtime first)."""
    return {**greeting, "graph_forms": ["runtime"] + [f for f in built if f != "runtime"]}
