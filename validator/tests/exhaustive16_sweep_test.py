"""Whole exhaustive16 sweeps (labels exhaustive, exhaustive-long: minutes each).

The planted bug's failing pairs are recomputed from its definition with numpy, block by block;
the 30 functions come from the specs (exhaustive16_test.SPEC_FUNCTIONS).
"""
import json
import os
import subprocess
import unittest

import numpy

from exhaustive16_test import FULL, SPEC_FUNCTIONS, f16, parse_id, planted, ties_away_pairs
from run_command_test import VALIDATE, Harness, results, run

TIE_LIMIT = 32 * 2.0 ** -24  # the bug touches products below 32 subnormal steps


def bug_count(rows):
    """Pairs of the block (every a, these b) that the f16-ties-away-tiny bug changes. Only a with
    |a| * min|b| below the limit can meet it, so the rest of A is skipped."""
    b = numpy.abs(f16(rows).astype(numpy.float64))
    b = b[numpy.isfinite(b) & (b > 0)]
    if b.size == 0:
        return 0
    all_a = numpy.arange(FULL, dtype=numpy.uint16)
    a = numpy.abs(f16(all_a).astype(numpy.float64))
    candidates = all_a[numpy.isfinite(a) & (a * b.min() < TIE_LIMIT)]
    return int(ties_away_pairs(candidates, rows).sum())


class Sweeps(Harness):
    def sweep(self, *args):
        proc, out = run(["--cases", "exhaustive16"] + list(args), timeout=3600)
        return proc, out, results(out)

    def test_planted_f16_rounding_bug_over_all_pairs(self):
        proc, _, cases = self.sweep("--backend-cmd", planted("f16-ties-away-tiny"),
                                    "--op", "onnx.Mul-14", "--dtype", "f16")
        self.assert_exit(proc, 1)
        self.assertEqual(len(cases), 256)
        total = 0
        for case in cases:
            _, _, (first, last) = parse_id(case["case"])
            expected = bug_count(numpy.arange(first, last + 1, dtype=numpy.uint16))
            found = case.get("categories", {}).get("rounding", 0)
            self.assertEqual(found, expected, case["case"])
            self.assertEqual(case["status"], "FAILED" if expected else "PASSED", case["case"])
            total += found
        # About one pair in 2^20: 4,224 of 2^32 (also counted over all pairs with numpy at once).
        self.assertEqual(total, 4224)
        self.assertIn("FAILED exhaustive16:onnx.Mul-14:f16:", proc.stdout)
        self.assertIn("--case exhaustive16:onnx.Mul-14:f16:a=0x", proc.stdout)

    def test_two_shards_merge_to_the_unsharded_counts(self):
        args = ["--backend-cmd", planted("f16-ties-away-tiny"), "--op", "onnx.Mul-14",
                "--dtype", "f16"]
        outs = [self.sweep(*args)[1]] + [self.sweep(*args, "--shard", "%d/2" % k)[1]
                                         for k in (1, 2)]
        summaries = []
        for files in ([outs[0]], outs[1:]):
            summary = os.path.join(files[0], "merged-summary.json")
            proc = subprocess.run([VALIDATE, "report", "--summary", summary] +
                                  [os.path.join(f, "results.jsonl") for f in files],
                                  capture_output=True, text=True)
            self.assert_exit(proc, 0)
            summaries.append(json.load(open(summary))["backends"][0])
        for key in ("totals", "cells", "categories"):
            self.assertEqual(summaries[1][key], summaries[0][key], key)
        self.assertEqual(summaries[1]["categories"]["rounding"]["elements"], 4224)

    def test_optimized_passes_every_function(self):
        proc, _, cases = self.sweep("--backend", "optimized")
        self.assert_exit(proc, 0)
        self.assert_all_pass(cases)
        self.assertEqual({parse_id(c["case"])[0] for c in cases}, set(SPEC_FUNCTIONS))
        self.assertEqual(len(cases), 30 * 256 + 6)  # 6 integer divisions: a zero-divisor block
        for function in SPEC_FUNCTIONS:
            self.assertIn(function, proc.stdout)  # its pairs/s row


if __name__ == "__main__":
    unittest.main()
