#!/usr/bin/env python3
"""numpy peer of eltwise-bench: the rows of bench/rows.json through numpy ufuncs.

Prints one JSON line per row, with the keys eltwise-bench uses (row, impl, status, median_s, reps,
bytes, elements, gb_per_s, gelem_per_s, threads), median of --reps timed runs after --warmup.
Outputs are preallocated (out=). numpy ufuncs run on one thread. bf16 is n/a (numpy has no
bfloat16); trunc integer division is n/a (numpy has only floor_divide, and a formula through
floats is not exact for i64). Integer inputs use rows.json's integer_inputs ranges. B's pdpd
shape is the Python adapter kit's lowering (the adapters' own): the kit must be importable,
PYTHONPATH=backends/kit/python as bench/run_benchmark.sh sets it.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

try:
    from eltwise_adapter_kit.lowering import pdpd_b_shape
except ImportError as e:
    sys.exit(f"numpy_peer: the Python adapter kit is not importable ({e}); "
             "run with PYTHONPATH=backends/kit/python, as bench/run_benchmark.sh does")

DTYPES = {"f32": np.float32, "f16": np.float16, "i8": np.int8, "i16": np.int16, "i32": np.int32,
          "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}


def numpy_b_shape(row, a_shape, b_shape):
    """B's shape under numpy broadcasting: pdpd lowered as the adapters lower it."""
    rule = row.get("broadcast", "numpy")
    if rule == "numpy":
        return list(b_shape)
    if rule == "pdpd":
        return list(pdpd_b_shape(tuple(a_shape), tuple(b_shape), row.get("axis", -1)))
    raise ValueError(f"row {row['id']}: broadcast {rule!r} is neither numpy nor pdpd")


def make_input(row, operand, shape, rng, ranges):
    """Floats: magnitudes in [0.5, 2) with random signs; integers: rows.json's integer_inputs."""
    dtype = DTYPES[row["dtype"]]
    n = int(np.prod(shape, dtype=np.int64))
    if np.issubdtype(dtype, np.floating):
        mag = rng.uniform(0.5, 2.0, n)
        values = np.where(rng.integers(0, 2, n) == 1, -mag, mag)
        return values.astype(dtype).reshape(shape)
    r = ranges[row["dtype"]]
    key = "multiply" if row["op"] == "multiply" else ("dividend" if operand == "a" else "divisor")
    lo, hi = r[key]
    values = rng.integers(lo, hi, n, dtype=dtype, endpoint=True)
    if key == "divisor" and np.issubdtype(dtype, np.signedinteger):
        values = np.where(rng.integers(0, 2, n) == 1, -values, values).astype(dtype)
    return values.reshape(shape)


def kernel(row):
    """The ufunc for the row, or (None, reason)."""
    if row["dtype"] not in DTYPES:
        return None, f"numpy has no {row['dtype']} dtype"
    if row["op"] == "multiply":
        return np.multiply, None
    rounding = row.get("rounding")
    if rounding is None:
        return np.true_divide, None
    if rounding == "floor":
        return np.floor_divide, None
    return None, "numpy has no truncating integer division (only floor_divide)"


def median_time(f, warmup, reps):
    for _ in range(warmup):
        f()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def emit(line):
    print(json.dumps(line, sort_keys=True), flush=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny shapes, 1 repetition, no warmup")
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--rows", default=os.path.join(here, "rows.json"))
    p.add_argument("--only", action="append", default=[], help="run only this row id")
    args = p.parse_args()
    reps, warmup = (1, 0) if args.smoke else (args.reps, args.warmup)
    doc = json.load(open(args.rows))
    rows, ranges = doc["rows"], doc["integer_inputs"]
    emit({"meta": {"impl": "numpy", "numpy": np.__version__, "threads": 1, "reps": reps,
                   "warmup": warmup, "mode": "smoke" if args.smoke else "full"}})
    rng = np.random.default_rng(42)
    for row in rows:
        if args.only and row["id"] not in args.only:
            continue
        f, reason = kernel(row)
        if f is None:
            emit({"row": row["id"], "impl": "numpy", "status": "n/a", "reason": reason})
            continue
        shapes = row["smoke"] if args.smoke else row
        a = make_input(row, "a", shapes["a"], rng, ranges)
        b = make_input(row, "b", numpy_b_shape(row, shapes["a"], shapes["b"]), rng, ranges)
        out = np.empty(np.broadcast_shapes(a.shape, b.shape), dtype=a.dtype)
        seconds = median_time(lambda: f(a, b, out=out), warmup, reps)
        nbytes = a.nbytes + b.nbytes + out.nbytes
        emit({"row": row["id"], "impl": "numpy", "status": "ok", "median_s": seconds, "reps": reps,
              "bytes": nbytes, "elements": out.size, "gb_per_s": nbytes / seconds * 1e-9,
              "gelem_per_s": out.size / seconds * 1e-9, "threads": 1,
              "note": "ufunc with out= (preallocated output), single-threaded"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
