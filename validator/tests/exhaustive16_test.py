"""Tests of `run --cases exhaustive16` and `run --shard K/N` (quick: a few blocks each).

Expected values come from the specs and from numpy: the set of 16-bit functions is written here
from the seed documents, the planted bugs' failing pairs are recomputed from their definitions
(numpy's float16 product of two float16 values is the exact product rounded once, to nearest
even), never read from the validator.
"""
import json
import os
import subprocess
import sys
import unittest

import numpy

from run_command_test import HOST, PLANTED_PLUGIN, VALIDATE, Harness, results, run

FULL = 0x10000

# 16-bit types per op version (docs/SEMANTICS.md section 1): Mul/Div-1, -6 and -7 allow float16
# only; -13 adds bfloat16; -14 adds int16 and uint16; OpenVINO's allow any numeric type.
SPEC_FUNCTIONS = (
    ["onnx.%s-%d:f16" % (op, v) for op in ("Mul", "Div") for v in (1, 6, 7)] +
    ["onnx.%s-13:%s" % (op, t) for op in ("Mul", "Div") for t in ("f16", "bf16")] +
    ["onnx.%s-14:%s" % (op, t) for op in ("Mul", "Div") for t in ("f16", "bf16", "i16", "u16")] +
    ["openvino.Multiply-1:%s" % t for t in ("f16", "bf16", "i16", "u16")] +
    ["openvino.Divide-1:%s:%s" % (t, r) for t in ("f16", "bf16", "i16", "u16")
     for r in ("floor", "trunc")])


def list_cases(*args):
    proc = subprocess.run([VALIDATE, "run", "--backend", "optimized", "--list-cases"] + list(args),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def parse_range(text):
    first, _, last = text.partition("-")
    return int(first, 16), int(last or first, 16)


def parse_id(case_id):
    """("onnx.Mul-14:f16", (a_first, a_last), (b_first, b_last)) of an exhaustive16 id."""
    parts = case_id.split(":")
    assert parts[0] == "exhaustive16", case_id
    ranges = {p[0]: parse_range(p[2:]) for p in parts if p[:2] in ("a=", "b=")}
    function = ":".join(p for p in parts[1:] if p[:2] not in ("a=", "b="))
    return function, ranges.get("a", (0, FULL - 1)), ranges["b"]


def planted(bug):
    return "%s %s --bug %s" % (HOST, PLANTED_PLUGIN, bug)


def f16(bits):
    return numpy.array(bits, dtype=numpy.uint16).view(numpy.float16)


def ties_away_pairs(a_bits, b_bits):
    """Pairs the f16-ties-away-tiny bug changes: exact products k + 1/2 steps of 2^-24 with k
    even and k < 32 (RNE keeps k, the bug gives k + 1). Returns a boolean mask (b rows, a cols)."""
    a = f16(a_bits).astype(numpy.float64)
    b = f16(b_bits).astype(numpy.float64)
    with numpy.errstate(invalid="ignore", over="ignore"):
        steps = numpy.abs(b[:, None] * a[None, :]) * 2.0 ** 24
        k = numpy.floor(steps)
        return (steps < 32) & (steps - k == 0.5) & (k % 2 == 0)


class Plan(Harness):
    def test_every_spec_function_is_swept_over_every_pair(self):
        ids = list_cases("--cases", "exhaustive16")
        blocks = {}
        for case_id in ids:
            function, a, b = parse_id(case_id)
            blocks.setdefault(function, []).append((a, b))
        self.assertEqual(sorted(blocks), sorted(SPEC_FUNCTIONS))
        for function, parts in blocks.items():
            self.assertTrue(all(a == (0, FULL - 1) for a, _ in parts), function)
            rows = sorted(b for _, b in parts)
            self.assertEqual(rows[0][0], 0, function)
            self.assertEqual(rows[-1][1], FULL - 1, function)
            for (_, last), (first, _) in zip(rows, rows[1:]):
                self.assertEqual(first, last + 1, "%s: gap or overlap at 0x%04x" % (function, last))
            integer_division = (":i16" in function or ":u16" in function) and "Div" in function
            self.assertEqual(rows[0] == (0, 0), integer_division,
                             "%s: the zero divisor is a block of its own exactly for integer "
                             "division" % function)

    def test_not_in_the_default_run(self):
        self.assertFalse([i for i in list_cases() if i.startswith("exhaustive16:")])

    def test_filters_select_functions(self):
        ids = list_cases("--cases", "exhaustive16", "--op", "openvino.Divide-1", "--dtype", "u16")
        self.assertEqual({parse_id(i)[0] for i in ids},
                         {"openvino.Divide-1:u16:floor", "openvino.Divide-1:u16:trunc"})
        self.assertEqual(len(ids), 2 * 257)


class Sharding(Harness):
    def test_shards_partition_any_run(self):
        for sources in ("exhaustive16", "spec,edge,random,invalid,exhaustive8"):
            whole = list_cases("--cases", sources)
            parts = [list_cases("--cases", sources, "--shard", "%d/3" % k) for k in (1, 2, 3)]
            self.assertEqual(sorted(sum(parts, [])), sorted(whole), sources)
            self.assertEqual(len(set(sum(parts, []))), len(whole), sources)
            for p in parts:  # a hash split: each part near a third
                self.assertGreater(len(p), len(whole) / 5, sources)

    def test_bad_shards_are_usage_errors(self):
        for text in ("0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3"):
            proc = subprocess.run([VALIDATE, "run", "--backend", "optimized", "--list-cases",
                                   "--shard", text], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, text)
            self.assertIn("--shard", proc.stderr, text)

    def test_merged_shards_report_the_unsharded_counts(self):
        args = ["--backend-cmd", planted("saturate-u8"), "--cases",
                "spec,edge,random,invalid,exhaustive8", "--count", "3"]
        whole_proc, whole = run(args)
        self.assert_exit(whole_proc, 1)
        outs = []
        for k in (1, 2):
            proc, out = run(args + ["--shard", "%d/2" % k])
            outs.append(out)
            run_line = json.loads(open(os.path.join(out, "results.jsonl")).readline())["run"]
            self.assertEqual(run_line["shard"], "%d/2" % k)
        summaries = []
        for files in ([whole], outs):
            summary = os.path.join(files[0], "summary-%d.json" % len(files))
            proc = subprocess.run([VALIDATE, "report", "--summary", summary] +
                                  [os.path.join(f, "results.jsonl") for f in files],
                                  capture_output=True, text=True)
            self.assert_exit(proc, 0)
            self.assertNotIn("warning", proc.stdout)
            summaries.append(json.load(open(summary)))
        whole_summary, merged = summaries
        self.assertEqual(len(merged["backends"]), 1)
        for key in ("totals", "cells", "categories"):
            self.assertEqual(merged["backends"][0][key], whole_summary["backends"][0][key], key)
        self.assertGreater(merged["backends"][0]["totals"]["FAILED"], 0)
        # one shard alone: the report says which is missing
        proc = subprocess.run([VALIDATE, "report", os.path.join(outs[0], "results.jsonl")],
                              capture_output=True, text=True)
        self.assertIn("shard 2/2 is missing", proc.stdout)


class Blocks(Harness):
    def test_conforming_blocks_pass(self):
        ids = ["exhaustive16:onnx.Mul-1:f16:b=0x3c00-0x3cff",  # legacy broadcast: A in full
               "exhaustive16:onnx.Div-14:i16:b=0x0000",  # every element undefined
               "exhaustive16:openvino.Divide-1:i16:floor:b=0xff00-0xffff",
               "exhaustive16:onnx.Div-13:bf16:a=0x0001-0x00ff:b=0x8000-0x8003"]
        proc, out = run(["--backend", "optimized"] + sum((["--case", i] for i in ids), []))
        self.assert_exit(proc, 0)
        cases = results(out)
        self.assertEqual([c["case"] for c in cases], ids)
        self.assert_all_pass(cases)
        self.assertEqual(cases[0]["shapes"], [[256, FULL], [256]])
        self.assertEqual(cases[0]["attributes"], {"broadcast": "1", "axis": "0"})
        self.assertEqual(cases[2]["shapes"], [[FULL], [256, 1]])
        self.assertEqual(cases[2]["attributes"], {"m_pythondiv": "true"})
        self.assertEqual(cases[3]["shapes"], [[255], [4, 1]])
        self.assertIn("M pairs/s", proc.stdout)

    def test_malformed_ids_are_usage_errors(self):
        for bad, part in (("exhaustive16:onnx.Mul-14:f16:b=0x3c", "0x3c"),
                          ("exhaustive16:onnx.Mul-14:f16:b=0x0200-0x0100", "ends before"),
                          ("exhaustive16:onnx.Mul-14:f32:b=0x0000", "onnx.Mul-14:f32"),
                          ("exhaustive16:onnx.Mul-14:f16", "b=0x")):
            proc, _ = run(["--backend", "optimized", "--case", bad])
            self.assert_exit(proc, 2)
            self.assertIn(part, proc.stderr)

    def test_planted_rounding_bug_found_and_narrowed(self):
        # b = 0x1000.. (about 2^-11) and 0x3c00.. (1.0 ..) meet small a in ties below 2^-19; b from
        # 0x7800 (32768) times any nonzero a is at least 2^-9, so that block must pass.
        blocks = [(0x1000, 0x10FF), (0x3C00, 0x3CFF), (0x7800, 0x78FF)]
        ids = ["exhaustive16:onnx.Mul-14:f16:b=0x%04x-0x%04x" % b for b in blocks]
        # blocks named by --case are shrunk only when --shrink-budget asks for it
        proc, out = run(["--backend-cmd", planted("f16-ties-away-tiny"), "--shrink-budget",
                         "1000"] + sum((["--case", i] for i in ids), []))
        self.assert_exit(proc, 1)
        cases = results(out)
        all_a = numpy.arange(FULL, dtype=numpy.uint16)
        for (first, last), case in zip(blocks, cases):
            rows = numpy.arange(first, last + 1, dtype=numpy.uint16)
            bug = ties_away_pairs(all_a, rows)
            if not bug.any():
                self.assertEqual(case["status"], "PASSED", case["case"])
                continue
            self.assertEqual(case["status"], "FAILED", case["case"])
            self.assertEqual(case["categories"], {"rounding": int(bug.sum())})
            expected_first = numpy.flatnonzero(bug)[:3].tolist()
            self.assertEqual([m["index"] for m in case["mismatches"][:3]], expected_first)
            for m in case["mismatches"]:
                a_bits, b_bits = int(m["a_bits"], 16), int(m["b_bits"], 16)
                self.assertTrue(ties_away_pairs([a_bits], [b_bits])[0, 0], m)
                exact = f16([a_bits]) * f16([b_bits])  # numpy: rounded once, to nearest even
                self.assertEqual(int(m["expected_bits"], 16), int(exact.view(numpy.uint16)[0]))
                self.assertEqual(int(m["actual_bits"], 16) & 0x7FFF,
                                 (int(m["expected_bits"], 16) & 0x7FFF) + 1, m)
            pair = "exhaustive16:onnx.Mul-14:f16:a=%s:b=%s" % (
                case["mismatches"][0]["a_bits"], case["mismatches"][0]["b_bits"])
            self.assertEqual(case["shrunk"], pair)
            self.assertEqual(case["minimal"]["status"], "FAILED")
            self.assertEqual(case["minimal"]["categories"], {"rounding": 1})
            self.assertEqual(case["minimal"]["tries"], 1)  # the first mismatch's pair, at once
            self.assertTrue(case["replay"].endswith("--case " + pair), case["replay"])
            self.assertTrue(all(os.path.getsize(f) < 4096 for f in case["files"]
                                if f.endswith(".npy")))
        self.assertEqual([c["status"] for c in cases], ["FAILED", "FAILED", "PASSED"])

    def test_crash_narrowed_to_the_trapping_pair(self):
        block = "exhaustive16:onnx.Div-14:i16:b=0xff00-0xffff"
        proc, out = run(["--backend-cmd", planted("i16-div-trap"), "--case", block,
                         "--shrink-budget", "1000"])
        self.assert_exit(proc, 1)
        case = results(out)[0]
        self.assertEqual(case["status"], "CRASHED")
        # the spec's INT16_MIN / -1 pair: a = 0x8000, b = 0xffff
        self.assertEqual(case["shrunk"], "exhaustive16:onnx.Div-14:i16:a=0x8000:b=0xffff")
        self.assertEqual(case["minimal"]["status"], "CRASHED")
        self.assertLessEqual(case["minimal"]["tries"], 2 * (8 + 16))


if __name__ == "__main__":
    unittest.main()
