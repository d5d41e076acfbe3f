"""eltwise-adapter-smoke: a first check of an adapter without the validator.

    eltwise-adapter-smoke [--timeout S] -- python3 my_adapter.py [its arguments]

It starts the adapter, checks its hello against the op-version table, sends each claimed
(op version, type) pair one valid request without broadcast rules of its own (A [2, 3] times B
[3], small values, no zero divisor) and one invalid one (A and B of different types), and checks
the answers: `ok` (or `unsupported`, counted apart) with the right type and shape, and the exact values for the integer, f32 and
f64 results (computed here in Python integers and numpy's IEEE arithmetic); `rejected` for the
invalid one. Exit 0 when everything holds, 1 with one line per problem otherwise, 2 when the
adapter cannot be started. The validator judges everything else: `eltwise-validate run`.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from . import op_table, protocol, tensors

A_SHAPE, B_SHAPE = [2, 3], [3]


def inputs(dtype, division):
    """Small values of the type: no overflow in f16, no zero divisor."""
    a = np.array([[7, -5, 3], [-8, 6, 1]]) if dtype[0] in "if" else np.array([[7, 5, 3], [8, 6, 1]])
    b = np.array([2, 3, -4]) if dtype[0] in "if" else np.array([2, 3, 4])
    if division:
        b = np.where(b == 0, 1, b)
    file_type = tensors.FILE_TYPES[dtype]
    if dtype == "bf16":  # the bits of small integers: the high half of their f32 bits
        return [(x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16) for x in (a, b)]
    return [x.astype(file_type) for x in (a, b)]


def expected(op, dtype, a, b):
    """Exact results for integers (wrapping, truncation or floor as the op has it) and IEEE f32/
    f64; None where only the type and shape are checked."""
    if dtype in ("f32", "f64"):
        with np.errstate(all="ignore"):
            return np.divide(a, b) if op_table.is_division(op) else np.multiply(a, b)
    if dtype[0] not in "iu":
        return None
    x, y = np.broadcast_arrays(a.astype(object), b.astype(object))
    if not op_table.is_division(op):
        exact = x * y
    elif op.startswith("onnx."):  # truncation toward zero
        exact = np.vectorize(lambda p, q: abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1))(x, y)
    else:  # OpenVINO Divide-1 floors by default (m_pythondiv=true)
        exact = x // y
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


def check_pair(adapter, folder, op, dtype):
    """The problems of one claimed pair; None when the adapter answers `unsupported`."""
    a, b = inputs(dtype, op_table.is_division(op))
    paths = [folder / f"{op}.{dtype}.{n}.npy" for n in ("a", "b", "out")]
    for path, array in zip(paths, (a, b)):
        np.save(path, array)
    tensor = lambda path, array, t=dtype: {"path": str(path), "dtype": t, "shape": list(array.shape)}
    reply = adapter.ask({"op": op, "a": tensor(paths[0], a), "b": tensor(paths[1], b),
                         "out": str(paths[2])})
    if reply.get("status") == "unsupported":
        return None
    if reply.get("status") != "ok":
        return [f"{op} {dtype}: answered {reply.get('status')}: {reply.get('message')}"]
    out = np.load(paths[2])
    want = expected(op, dtype, a, b)
    if reply.get("dtype", tensors.type_name(out.dtype)) != dtype or list(out.shape) != A_SHAPE:
        return [f"{op} {dtype}: result is {reply.get('dtype')} {list(out.shape)}"]
    if want is not None and not np.array_equal(out, want):
        return [f"{op} {dtype}: {out.tolist()} where {want.tolist()} is exact"]
    other = "f64" if dtype != "f64" else "f32"
    b_other = b.astype(tensors.FILE_TYPES[other])
    np.save(paths[1], b_other)
    reply = adapter.ask({"op": op, "a": tensor(paths[0], a),
                         "b": tensor(paths[1], b_other, other), "out": str(paths[2])})
    if reply.get("status") != "rejected":
        return [f"{op} {dtype} with B {other}: answered {reply.get('status')}, not rejected"]
    return []


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
             and not op_table.OPS[op]["attributes"] for t in types]
    unsupported = 0
    with tempfile.TemporaryDirectory(prefix="eltwise-smoke-") as folder:
        for op, dtype in pairs:
            found = check_pair(adapter, Path(folder), op, dtype)
            unsupported += found is None
            problems += found or []
    adapter.close()
    for line in problems:
        print(line)
    print(f"eltwise-adapter-smoke: {greeting.get('name')} {greeting.get('version')}: "
          f"{len(pairs)} pairs, {unsupported} unsupported, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
