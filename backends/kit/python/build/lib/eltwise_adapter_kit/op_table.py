"""The op-version table: core/op_table.json of the repository, the checked-in output of
`eltwise-validate list --json`, shipped in this package (docs/tests/op_table_test.py keeps the
two equal). Element types, attributes and ids of op versions come from here, never from lists
typed into an adapter. ELTWISE_OP_TABLE overrides the file's path.
"""
import json
import os
from pathlib import Path

ENV = "ELTWISE_OP_TABLE"
DEFAULT_PATH = Path(__file__).resolve().with_name("op_table.json")


def path():
    return Path(os.environ.get(ENV) or DEFAULT_PATH)


def load(file=None):
    """The op versions in table order: dicts with id, domain, name, version, element_types,
    attributes (name, type, default, and allowed / minimum / alias where the spec has them)."""
    file = Path(file or path())
    try:
        with open(file, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"cannot read the op-version table {file} ({ENV} overrides the "
                           f"path): {e}") from None


OPS = {op["id"]: op for op in load()}  # op version id -> its row, in table order
ELEMENT_TYPES = {op_id: list(op["element_types"]) for op_id, op in OPS.items()}


def is_legacy(op):
    """ONNX Mul/Div-1 and -6: broadcasting by their `broadcast` and `axis` attributes."""
    return any(a["name"] == "broadcast" for a in OPS[op]["attributes"])


def is_division(op):
    return OPS.get(op, {}).get("name") in ("Div", "Divide")


def truncates(op, dtype):
    """ONNX Div truncates signed integer quotients toward zero (numpy, MLX: only floor)."""
    return op.startswith("onnx.") and is_division(op) and dtype.startswith("i")


def claims(library_types, truncating_division):
    """(op version -> types) for a library: the table's types that it has, and ONNX's
    truncating signed integer division only if it has such a division."""
    return {op: [t for t in types if t in library_types
                 and (truncating_division or not truncates(op, t))]
            for op, types in ELEMENT_TYPES.items()}
