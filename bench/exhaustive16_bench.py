#!/usr/bin/env python3
"""Exhaustive16 validation throughput (validated pairs/s), in process and through the plugin host.

Driven by bench/exhaustive16_benchmark.sh. For each distinct 16-bit function it runs
`eltwise-validate run --cases exhaustive16` on a fixed set of blocks (256 b values x 65536 a
values each) with `--backend optimized` and with the optimized plugin behind eltwise-backend-host,
alternating the two each repetition so load drift hits both, and measures the copy ceiling
(eltwise-copy-ceiling) once per repetition. Rates come from the per-case "seconds" the validator
writes to results.jsonl (the wall time of generating, running, computing the expected output and
comparing one block; process start-up and report writing excluded). Every raw measurement is one
JSON line; the summary is a markdown table on stdout. Performance is measured, never asserted:
the exit status is 1 only when a run failed or a block did not pass.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

# Bytes a validated pair must move at least: the backend writes its 2-byte output, the validator
# writes the 2-byte expected output, and the comparison reads both (2 + 2 + 4).
BYTES_PER_PAIR = 8
A_VALUES = 65536  # every block pairs all 2^16 values of A with a range of B values

# (row label, op version, dtype of A, Divide-1 mode or "") in table order. One representative op
# version per distinct function; Mul-1 is the legacy row (A materialized in full). The case ids
# come from the validator (`run --list-cases`), never built here.
FUNCTIONS = [
    ("f16 mul", "onnx.Mul-14", "f16", ""),
    ("f16 div", "onnx.Div-14", "f16", ""),
    ("bf16 mul", "onnx.Mul-14", "bf16", ""),
    ("bf16 div", "onnx.Div-14", "bf16", ""),
    ("i16 mul", "onnx.Mul-14", "i16", ""),
    ("u16 mul", "onnx.Mul-14", "u16", ""),
    ("i16 div trunc", "onnx.Div-14", "i16", ""),
    ("i16 div floor", "openvino.Divide-1", "i16", "floor"),
    ("u16 div trunc", "onnx.Div-14", "u16", ""),
    ("u16 div floor", "openvino.Divide-1", "u16", "floor"),
    ("f16 mul, legacy", "onnx.Mul-1", "f16", ""),
]
MODES = ("in_process", "host")


def parse_block(case_id):
    """(function id, first b, last b) of a block id the validator lists:
    'exhaustive16:openvino.Divide-1:i16:floor:b=0x0100-0x01ff' ->
    ('openvino.Divide-1:i16:floor', 0x0100, 0x01ff)."""
    head, _, b_range = case_id.rpartition(":b=")
    first, _, last = b_range.partition("-")
    return head.split(":", 1)[1], int(first, 16), int(last or first, 16)


def select_blocks(build, op, dtype, mode, blocks):
    """(function id, case ids) of one function: of the cases the validator lists for (op, dtype)
    and the mode, the blocks b = 0xHH00-0xHHff with HH = 0x01, 0x11, ..., spread over the whole
    B range. Starting at 0x01 skips block 0, which the integer divisions split into b = 0
    (division by zero) and b = 1..255, so every function gets the same 256-value blocks."""
    cmd = validate_cmd(build, "in_process", op, dtype, []) + ["--list-cases"]
    listed = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    by_function = {}
    for case_id in listed:
        fid, first, last = parse_block(case_id)
        by_function.setdefault(fid, {})[(first, last)] = case_id
    fids = [f for f in by_function if not mode or f.rsplit(":", 1)[1] == mode]
    if len(fids) != 1:
        raise SystemExit(f"exhaustive16_bench: {op} {dtype} {mode or '(no mode)'}: expected one "
                         f"function among the listed cases, found {sorted(by_function)}")
    wanted = [(h << 8, (h << 8) + 0xff) for h in (0x01 + 0x10 * k for k in range(blocks))]
    ids = [by_function[fids[0]].get(block) for block in wanted]
    if None in ids:
        first, last = wanted[ids.index(None)]
        raise SystemExit(f"exhaustive16_bench: {fids[0]}: the validator lists no block "
                         f"b=0x{first:04x}-0x{last:04x}")
    return fids[0], ids


def backend_args(build, mode):
    if mode == "in_process":
        return ["--backend", "optimized"]
    if mode.startswith("adapter:"):
        return ["--backend", mode.split(":", 1)[1]]
    host = os.path.join(build, "bin", "eltwise-backend-host")
    plugin = os.path.join(build, "lib", "libeltwise_optimized_plugin.so")
    return ["--backend-cmd", f"{shlex.quote(host)} {shlex.quote(plugin)}"]


def validate_cmd(build, mode, op, dtype, ids):
    cmd = [os.path.join(build, "bin", "eltwise-validate"), "run", *backend_args(build, mode)]
    cmd += ["--cases", "exhaustive16", "--op", op, "--dtype", dtype]
    return cmd + (["--case", *ids] if ids else [])


def pairs_of(case_id):
    _, first, last = parse_block(case_id)
    return (last - first + 1) * A_VALUES


def read_cases(results_file):
    with open(results_file) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return [line for line in lines if line.get("source") == "exhaustive16"]


def measure(build, label, op, dtype, fid, ids, mode, rep, scratch):
    out = os.path.join(scratch, mode)
    start = time.perf_counter()
    run = subprocess.run(validate_cmd(build, mode, op, dtype, ids) + ["--out", out],
                         capture_output=True, text=True)
    wall = time.perf_counter() - start
    line = {"kind": "validate", "function": label, "function_id": fid, "mode": mode, "rep": rep,
            "exit_code": run.returncode, "wall_s": wall}
    cases = read_cases(os.path.join(out, "results.jsonl")) if run.returncode == 0 else []
    passed = [c for c in cases if c.get("status") == "PASSED"]
    if run.returncode != 0 or len(passed) != len(ids):
        line.update(status="error", cases=len(cases), passed=len(passed),
                    stderr=run.stderr[-2000:])
        return line
    seconds = sum(c["seconds"] for c in cases)
    pairs = sum(pairs_of(c["case"]) for c in cases)
    # Per block too: the first block of a process also pays for page faults and thread start-up.
    line.update(status="ok", cases=len(cases), pairs=pairs, seconds=seconds,
                m_pairs_per_s=pairs / seconds / 1e6,
                case_seconds=[round(c["seconds"], 6) for c in cases])
    return line


def measure_ceiling(build, rep, smoke):
    """The copy ceiling for one block's worth of bytes (the working set of one case)."""
    cmd = [os.path.join(build, "bin", "eltwise-copy-ceiling"),
           "--bytes", str(BYTES_PER_PAIR * 256 * A_VALUES), "--reps", "1" if smoke else "3"]
    line = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    line.update(kind="copy_ceiling", rep=rep)
    return line


def table(lines, selected):
    ok = [l for l in lines if l.get("status") == "ok"]
    ok = [l for l in ok if l["kind"] == "copy_ceiling" or l.get("mode")]
    ceilings = [l["gb_per_s"] * 1e9 for l in ok if l["kind"] == "copy_ceiling"]
    ceiling = statistics.median(ceilings) if ceilings else None
    rows = ["| function | in-process M pairs/s | host M pairs/s | host/in-process "
            "| in-process ÷ ceiling | host ÷ ceiling |", "|---|---:|---:|---:|---:|---:|"]
    for label, _, _, fid, _ in selected:
        rate = {}
        for m in MODES:
            r = [l["m_pairs_per_s"] for l in ok
                 if l["kind"] == "validate" and l["function"] == label and l["mode"] == m]
            rate[m] = statistics.median(r) if r else None
        if all(v is None for v in rate.values()):
            continue

        def fmt(v, digits):
            return "n/a" if v is None else f"{v:.{digits}f}"

        def share(v):  # validated bytes/s over the copy ceiling's bytes/s
            return None if v is None or not ceiling else v * 1e6 * BYTES_PER_PAIR / ceiling

        ratio = (rate["host"] / rate["in_process"]
                 if rate["host"] is not None and rate["in_process"] else None)
        rows.append(f"| {label} ({fid}) | {fmt(rate['in_process'], 1)} "
                    f"| {fmt(rate['host'], 1)} | {fmt(ratio, 2)} "
                    f"| {fmt(share(rate['in_process']), 3)} | {fmt(share(rate['host']), 3)} |")
    adapters = sorted({l["mode"] for l in ok if l.get("mode", "").startswith("adapter:")})
    if adapters:
        rows += ["", "| function | adapter | M pairs/s | ÷ in-process |", "|---|---|---:|---:|"]
    for label, _, _, fid, _ in selected:
        base = [l["m_pairs_per_s"] for l in ok if l["kind"] == "validate"
                and l["function"] == label and l["mode"] == "in_process"]
        for mode in adapters:
            r = [l["m_pairs_per_s"] for l in ok if l["kind"] == "validate"
                 and l["function"] == label and l["mode"] == mode]
            if r:
                ratio = f"{statistics.median(r) / statistics.median(base):.3f}" if base else "n/a"
                rows.append(f"| {label} | {mode.split(':', 1)[1]} | "
                            f"{statistics.median(r):.1f} | {ratio} |")
    rows.append("")
    rows.append(f"- copy ceiling: {fmt_gb(ceiling)} (parallel memcpy, median of "
                f"{len(ceilings)} measurements), {BYTES_PER_PAIR} bytes per validated pair")
    return "\n".join(rows)


def fmt_gb(ceiling):
    return "n/a" if ceiling is None else f"{ceiling / 1e9:.2f} GB/s"


def run(args):
    blocks = 1 if args.smoke else args.blocks
    reps = 1 if args.smoke else args.reps
    chosen = [f for f in FUNCTIONS if not args.function or f[0] in args.function]
    selected = [(label, op, dtype, *select_blocks(args.build_dir, op, dtype, mode, blocks))
                for label, op, dtype, mode in chosen]
    lines = [{"kind": "meta", "blocks": blocks, "pairs_per_measurement": blocks * 256 * A_VALUES,
              "reps": reps, "nproc": os.cpu_count(), "loadavg_before": os.getloadavg(),
              "omp_num_threads": os.environ.get("OMP_NUM_THREADS")}]
    with open(args.jsonl, "w") as raw, tempfile.TemporaryDirectory(prefix="exh16-") as scratch:
        def emit(line):
            lines.append(line)
            raw.write(json.dumps(line) + "\n")
            raw.flush()
            if line.get("status") == "error":
                print(f"exhaustive16_bench: failed: {json.dumps(line)}", file=sys.stderr)

        emit(lines[0])
        for rep in range(reps):
            emit(measure_ceiling(args.build_dir, rep, args.smoke))
            for label, op, dtype, fid, ids in selected:
                # Alternate which mode goes first so neither always runs on a warmer machine.
                modes = MODES + tuple(f"adapter:{a}" for a in args.adapter or [])
                for mode in (modes if rep % 2 == 0 else modes[::-1]):
                    emit(measure(args.build_dir, label, op, dtype, fid, ids, mode, rep, scratch))
            print(f"exhaustive16_bench: rep {rep + 1}/{reps} done, load average "
                  f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
                  file=sys.stderr)
        emit({"kind": "meta", "loadavg_after": os.getloadavg()})
    print(table(lines, selected))
    print(f"- {blocks} block(s) x 256 x 65536 = {blocks * 256 * A_VALUES} pairs per measurement, "
          f"median of {reps} rep(s); raw lines in {args.jsonl}")
    return 1 if any(l.get("status") == "error" for l in lines) else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build-dir", required=True, help="build dir with bin/ and lib/")
    p.add_argument("--jsonl", required=True, help="where the raw JSON lines go")
    p.add_argument("--reps", type=int, default=5, help="repetitions (median reported)")
    p.add_argument("--blocks", type=int, default=16,
                   help="blocks of 256 x 65536 pairs per measurement, 1..16 (default 16)")
    p.add_argument("--smoke", action="store_true", help="1 block per function, 1 repetition")
    p.add_argument("--function", action="append", metavar="LABEL",
                   help="measure only this function (a row label such as 'f16 mul'); repeatable")
    p.add_argument("--adapter", action="append", metavar="NAME",
                   help="also measure this --backend NAME (an adapter); repeatable")
    args = p.parse_args()
    unknown = set(args.function or []) - {f[0] for f in FUNCTIONS}
    if unknown:
        p.error(f"unknown --function {sorted(unknown)}; the labels: {[f[0] for f in FUNCTIONS]}")
    if args.reps < 1:
        p.error("--reps must be >= 1")
    if not 1 <= args.blocks <= 16:
        p.error("--blocks must be in 1..16")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
