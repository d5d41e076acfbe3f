"""eltwise-adapter-smoke: a first check of an adapter without the validator.

    eltwise-adapter-smoke [--timeout S] -- python3 my_adapter.py [its arguments]

It starts the adapter, checks its hello against the op-version table, and sends each claimed
(op version, type) pair its valid requests and one invalid one (A and B of different types). The
valid requests, A [2, 3] with small values and no zero divisor:
- every op version: B [3] under the op version's default attributes (ONNX Mul/Div-1 and -6:
  broadcast=1, B aligned to A's end; ONNX 7+ and OpenVINO: numpy broadcasting);
- ONNX Mul/Div-1 and -6 also broadcast=1 axis=0 with B [2] (B read as [2, 1]);
- OpenVINO Multiply-1 and Divide-1 also auto_broadcast=pdpd axis 0 with B [2] (B as [2, 1]);
- OpenVINO Divide-1 on integer types also m_pythondiv=false: truncation where the default floors.
It checks the answers: `ok` (or `unsupported`, counted apart) with the right type and shape, and
the exact values for the integer, f32 and f64 results (computed here from the specs in Python
integers and numpy's IEEE arithmetic, B's shape under each rule written out by hand);
`rejected` for the invalid one. Exit 0 when everything holds, 1 with one line per problem
otherwise, 2 when the adapter cannot be started. The validator judges everything else:
`eltwise-validate run`.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from . import op_table, protocol, tensors
from .output_comparison import same_outputs

A_SHAPE = [2, 3]
A_VALUES = {"signed": [[7, -5, 3], [-8, 6, 1]], "unsigned": [[7, 5, 3], [8, 6, 1]]}
B_ALONG_ROWS = {"signed": [2, -3], "unsigned": [2, 3]}  # B [2]: one value per row of A
B_ALONG_COLUMNS = {"signed": [2, 3, -4], "unsigned": [2, 3, 4]}  # B [3]: one per column


class Request:
    """One valid request of the smoke check: attributes, B's values, and the shape B takes under
    the request's broadcast rule (written from the spec, not asked of the kit)."""

    def __init__(self, attributes, b_values, b_read_as):
        self.attributes, self.b_values, self.b_read_as = attributes, b_values, b_read_as

    def label(self):
        return " ".join(f"{k}={v}" for k, v in self.attributes.items()) or "defaults"


def requests(op, dtype):
    """The valid requests of a claimed pair (see the module's docstring)."""
    attributes = {a["name"] for a in op_table.OPS[op]["attributes"]}
    columns, rows = B_ALONG_COLUMNS, B_ALONG_ROWS
    if "broadcast" in attributes:  # ONNX legacy: without broadcast=1 the shapes must be equal
        return [Request({"broadcast": "1"}, columns, (3,)),
                Request({"broadcast": "1", "axis": "0"}, rows, (2, 1))]
    found = [Request({}, columns, (3,))]
    if "auto_broadcast" in attributes:
        found.append(Request({"auto_broadcast": "pdpd", "auto_broadcast_axis": "0"}, rows, (2, 1)))
    if "m_pythondiv" in attributes and dtype[0] in "iu":
        found.append(Request({"m_pythondiv": "false"}, columns, (3,)))
    return found


def inputs(dtype, b_values=B_ALONG_COLUMNS):
    """A and B as the request's files hold them: small values of the type, no overflow in f16,
    no zero divisor."""
    kind = "signed" if dtype[0] in "if" else "unsigned"
    a, b = np.array(A_VALUES[kind]), np.array(b_values[kind])
    file_type = tensors.FILE_TYPES[dtype]
    if dtype == "bf16":  # the bits of small integers: the high half of their f32 bits
        return [(x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16) for x in (a, b)]
    return [x.astype(file_type) for x in (a, b)]


def floors(op, attributes):
    """Whether the op's integer division floors: OpenVINO Divide-1 by its m_pythondiv (default
    true), ONNX Div never (it truncates toward zero)."""
    specs = {a["name"]: a for a in op_table.OPS[op]["attributes"]}
    if "m_pythondiv" not in specs:
        return False
    return attributes.get("m_pythondiv", specs["m_pythondiv"]["default"]).lower() in ("true", "1")


def expected(op, dtype, a, b, attributes=None):
    """Exact results for integers (wrapping, truncation or floor as the op and its attributes
    have it) and IEEE f32/f64; None where only the type and shape are checked. `b` is already in
    the shape its broadcast rule reads it as."""
    if dtype in ("f32", "f64"):
        with np.errstate(all="ignore"):
            return np.divide(a, b) if op_table.is_division(op) else np.multiply(a, b)
    if dtype[0] not in "iu":
        return None
    x, y = np.broadcast_arrays(a.astype(object), b.astype(object))
    if not op_table.is_division(op):
        exact = x * y
    elif floors(op, attributes or {}):  # Python's // on integers floors
        exact = x // y
    else:  # truncation toward zero
        exact = np.vectorize(lambda p, q: abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1))(x, y)
    low, span = int(np.iinfo(a.dtype).min), 1 << (a.dtype.itemsize * 8)
    wrapped = [(int(v) - low) % span + low for v in np.ravel(exact)]  # modulo 2^N
    return np.array(wrapped, dtype=a.dtype).reshape(exact.shape)


class Adapter:
    def __init__(self, command, timeout):
        self.timeout = timeout
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        self.next_id = 0

    def read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the adapter ended (exit {self.process.wait(self.timeout)})")
        return json.loads(line)

    def ask(self, request):
        self.next_id += 1
        self.process.stdin.write(json.dumps({"id": self.next_id, **request}) + "\n")
        self.process.stdin.flush()
        return self.read()

    def close(self):
        self.process.stdin.close()
        self.process.wait(self.timeout)


def check_hello(greeting):
    problems = []
    if greeting.get("protocol") != protocol.PROTOCOL:
        problems.append(f"hello: protocol {greeting.get('protocol')!r}, not {protocol.PROTOCOL}")
    for op, types in greeting.get("ops", {}).items():
        if op not in op_table.OPS:
            problems.append(f"hello: {op} is not an op version of the table")
            continue
        bad = [t for t in types if t not in op_table.ELEMENT_TYPES[op]]
        if bad:
            problems.append(f"hello: {op} claims {bad}, which it does not allow")
    return problems


def check_request(adapter, paths, op, dtype, request):
    """The problems of one valid request; None when the adapter answers `unsupported`."""
    a, b = inputs(dtype, request.b_values)
    for path, array in zip(paths, (a, b)):
        np.save(path, array)
    what = f"{op} {dtype} ({request.label()})"
    reply = adapter.ask({"op": op, "a": tensor(paths[0], a, dtype), "b": tensor(paths[1], b, dtype),
                         "out": str(paths[2]), "attributes": request.attributes})
    if reply.get("status") == "unsupported":
        return None
    if reply.get("status") != "ok":
        return [f"{what}: answered {reply.get('status')}: {reply.get('message')}"]
    out = np.load(paths[2])
    want = expected(op, dtype, a, b.reshape(request.b_read_as), request.attributes)
    if (reply.get("dtype", tensors.type_name(out.dtype)) != dtype or list(out.shape) != A_SHAPE
            or out.dtype != tensors.FILE_TYPES[dtype]):
        return [f"{what}: result is {reply.get('dtype')} {list(out.shape)} in a {out.dtype} file"]
    if want is not None and not same_outputs(dtype, out, want):
        return [f"{what}: {out.tolist()} where {want.tolist()} is exact"]
    return []


def tensor(path, array, dtype):
    return {"path": str(path), "dtype": dtype, "shape": list(array.shape)}


def check_pair(adapter, folder, op, dtype):
    """(problems, requests answered `unsupported`) of one claimed pair: its valid requests,
    then one with B of another type under the first one's attributes."""
    paths = [folder / f"{op}.{dtype}.{n}.npy" for n in ("a", "b", "out")]
    problems, unsupported = [], 0
    for request in requests(op, dtype):
        found = check_request(adapter, paths, op, dtype, request)
        unsupported += found is None
        problems += found or []
    first = requests(op, dtype)[0]
    a, b = inputs(dtype, first.b_values)
    other = "f64" if dtype != "f64" else "f32"
    b_other = b.astype(tensors.FILE_TYPES[other])
    np.save(paths[0], a)
    np.save(paths[1], b_other)
    reply = adapter.ask({"op": op, "a": tensor(paths[0], a, dtype),
                         "b": tensor(paths[1], b_other, other), "out": str(paths[2]),
                         "attributes": first.attributes})
    if reply.get("status") != "rejected":
        problems.append(f"{op} {dtype} with B {other}: answered {reply.get('status')}, "
                        "not rejected")
    return problems, unsupported


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("command", nargs="+", help="the adapter's command line (after --)")
    args = parser.parse_args(argv)
    try:
        adapter = Adapter(args.command, args.timeout)
        greeting = adapter.read()
    except (OSError, RuntimeError, ValueError) as e:
        print(f"eltwise-adapter-smoke: cannot start {args.command}: {e}", file=sys.stderr)
        return 2
    problems = check_hello(greeting)
    pairs = [(op, t) for op, types in greeting.get("ops", {}).items() if op in op_table.OPS
             for t in types]
    sent = sum(len(requests(op, t)) for op, t in pairs)
    unsupported = 0
    with tempfile.TemporaryDirectory(prefix="eltwise-smoke-") as folder:
        for op, dtype in pairs:
            found, skipped = check_pair(adapter, Path(folder), op, dtype)
            unsupported += skipped
            problems += found
    adapter.close()
    for line in problems:
        print(line)
    print(f"eltwise-adapter-smoke: {greeting.get('name')} {greeting.get('version')}: "
          f"{len(pairs)} pairs, {sent} valid requests ({unsupported} unsupported), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
