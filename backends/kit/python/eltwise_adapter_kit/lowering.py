"""What a model converter does before it calls a library's element-wise Mul/Div: the checks of
the op version (checks.py) and the lowering of broadcast rules the library does not have to
plain numpy broadcasting, by reshaping B (an "unsqueeze" of trailing dims).

Lowerings (docs/SEMANTICS.md section 3), as onnx-tensorflow's explicit_broadcast and converters
of Paddle models lower them (plus the validity checks those converters leave out):
- ONNX legacy (Mul-1/6, Div-1/6) broadcast=1: B is one element -> B as it is (all its dims
  are 1); else B must equal A's dims from `axis` (default: aligned to A's end) exactly, and B
  gets rank(A) - axis - rank(B) trailing 1s. broadcast=0: the shapes must be equal.
- OpenVINO pdpd: axis -1 means rank(A) - rank(B); B's trailing 1s are dropped, each B dim must
  equal its A dim or be 1, and B gets trailing 1s up to rank(A).
After the lowering, numpy broadcasting of A with the reshaped B gives exactly A's shape. B keeps
the shape the case gives wherever numpy broadcasting reads it the same way (same dims once
leading 1s are set aside, rank at most A's): a one-element B stays a tensor of its rank, never a
0-d array, which sends some libraries down a scalar path (tinygrad folds a reciprocal there).
"""
import dataclasses

from . import checks, op_table, tensors
from .answers import Unsupported
from .checks import shape_error


@dataclasses.dataclass
class Plan:
    """A checked request: what to compute, and B's shape after lowering (None: as given)."""
    op: str
    dtype: str
    # Integer division floors (Divide-1 with m_pythondiv, true by default); False for every
    # other op and for float types, whose division m_pythondiv does not change.
    floor: bool
    b_shape: tuple = None


def legacy_b_shape(a, b, axis):
    """B's shape for numpy broadcasting under ONNX legacy broadcast=1."""
    rule = f"onnx legacy broadcast=1 axis={axis}"
    if len(b) > len(a):
        shape_error(a, b, rule, "rank(B) exceeds rank(A)")
    if axis is not None and axis + len(b) > len(a):
        shape_error(a, b, rule, "B's dims do not fit in A from axis")
    if all(d == 1 for d in b):  # one element: numpy broadcasts it as it is
        return tuple(b)
    start = len(a) - len(b) if axis is None else axis
    if tuple(a[start:start + len(b)]) != tuple(b):
        shape_error(a, b, rule, "B must equal a contiguous run of A's dims (1s do not stretch)")
    return tuple(b) + (1,) * (len(a) - start - len(b))


def pdpd_b_shape(a, b, axis):
    """B's shape for numpy broadcasting under OpenVINO pdpd with auto_broadcast_axis."""
    rule = f"pdpd axis={axis}"
    if len(b) > len(a):
        shape_error(a, b, rule, "rank(B) exceeds rank(A)")
    start = len(a) - len(b) if axis == -1 else axis
    kept = list(b)
    while kept and kept[-1] == 1:
        kept.pop()
    if start + len(kept) > len(a):
        shape_error(a, b, rule, "B's dims (trailing 1s dropped) do not fit in A from axis")
    for i, d in enumerate(kept):
        if d not in (1, a[start + i]):
            shape_error(a, b, rule, f"B dim {i} ({d}) must equal A dim {start + i} or be 1")
    return tuple(kept) + (1,) * (len(a) - start - len(kept))


def kept_rank(a, b, lowered):
    """B's own shape where numpy broadcasting reads it as `lowered` (leading 1s aside), else
    `lowered`: the rank the case gives is kept wherever numpy allows it."""
    def core(shape):
        shape = list(shape)
        while shape and shape[0] == 1:
            shape.pop(0)
        return shape
    return tuple(b) if len(b) <= len(a) and core(b) == core(lowered) else tuple(lowered)


def _plan_legacy(op, dtype, attributes, a, b):
    broadcast, axis = checks.legacy_attributes(op, attributes)
    if not broadcast:
        if a != b:
            shape_error(a, b, "onnx legacy broadcast=0", "the shapes must be equal")
        return Plan(op, dtype, False)
    return Plan(op, dtype, False, kept_rank(a, b, legacy_b_shape(a, b, axis)))


def plan(request, check_numpy=checks.numpy_broadcast):
    """Checks a request and lowers its broadcast rule. `check_numpy(a, b)` runs where the rule is
    numpy broadcasting: `checks.left_to_library` when the library checks it itself (the adapter
    maps its error to Rejected: PROTOCOL.md section 13), the library's own check to quote its
    message, or the default, numpy's check with numpy's message, for a library that would not
    refuse bad shapes."""
    op, a_info, b_info = request["op"], request["a"], request["b"]
    a, b = tuple(a_info["shape"]), tuple(b_info["shape"])
    if op not in op_table.OPS:
        raise Unsupported(f"this backend does not implement {op}")
    checks.check_types(op, a_info["dtype"], b_info["dtype"])
    attributes = request.get("attributes", {})
    if op_table.is_legacy(op):
        return _plan_legacy(op, a_info["dtype"], attributes, a, b)
    rule, floor = checks.resolve_attributes(op, attributes)
    result = Plan(op, a_info["dtype"], floor and a_info["dtype"][0] in "iu")
    if rule == "pdpd":
        axis = int(attributes.get("auto_broadcast_axis", "-1"))
        result.b_shape = kept_rank(a, b, pdpd_b_shape(a, b, axis))
    elif rule == "none" and a != b:
        shape_error(a, b, "auto_broadcast=none", "the shapes must be equal")
    else:
        check_numpy(a, b)
    return result


def load_planned(request, check_numpy=checks.numpy_broadcast, to_library=lambda a, dtype: a):
    """Checks and lowers a request, loads both inputs, gives B its lowered shape (a numpy
    reshape, before the library sees it) and converts them with `to_library(array, dtype)`.
    Returns (plan, a, b)."""
    plan_ = plan(request, check_numpy)
    a = tensors.load_input(request["a"])
    b = tensors.load_input(request["b"])
    if plan_.b_shape is not None:
        b = b.reshape(plan_.b_shape)
    return plan_, to_library(a, plan_.dtype), to_library(b, plan_.dtype)
