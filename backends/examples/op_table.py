"""The op-version table for Python adapters and scripts: core/op_table.json, the checked-in output
of `eltwise-validate list --json` (docs/tests/op_table_test.py keeps the two equal). Element
types, attributes and ids of op versions come from here, never from lists typed into a script.

ELTWISE_OP_TABLE overrides the file's path. Standard library only: the adapters run under
Debian's python3 and under the project's venv.
"""
import json
import os
from pathlib import Path

ENV = "ELTWISE_OP_TABLE"
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "core" / "op_table.json"


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
