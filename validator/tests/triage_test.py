"""End-to-end tests of `triage` and `run --draft-profile`: a planted library that flushes f32
subnormals (SSE with MXCSR's FTZ and DAZ bits set: the hardware's own flush) and truncates bf16
results (the f32 result's upper 16 bits), both computed by the plugin as a deviating library
would, not by the models under test.

What must hold comes from what was planted: triage drafts exactly those two behaviours, the
flush for f32 and the truncation for bf16, each scoped to the op versions run that have that type
and to nothing else; the same run with the draft as its profile has no finding.
"""
import json
import os
import re
import subprocess
import tempfile
import tomllib
import unittest

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
HOST = os.environ.get("ELTWISE_HOST", "eltwise-backend-host")
PLANTED_PLUGIN = os.environ.get("ELTWISE_PLANTED_PLUGIN", "")

# The ONNX versions 7 (no bf16: the bf16 entry must not name them) and 14, from the op table.
# f16 is exact in the planted library.
with open(os.path.join(os.path.dirname(__file__), "..", "..", "core", "op_table.json")) as f:
    TABLE = [op for op in json.load(f) if op["domain"] == "onnx" and op["version"] in (7, 14)]
OPS = [op["id"] for op in TABLE]
BF16_OPS = [op["id"] for op in TABLE if "bf16" in op["element_types"]]
CASES = ["--cases", "edge,random", "--op", ",".join(OPS), "--dtype", "f32,bf16,f16",
         "--count", "3", "--seed", "1"]
FTZ = ["subnormal_inputs_zero", "subnormal_results_flushed"]
TRUNCATED = ["results_rounded_toward_zero"]


def validate(args):
    return subprocess.run([VALIDATE] + args, capture_output=True, text=True, timeout=900)


def planted_run(args):
    out = tempfile.mkdtemp(prefix="eltwise-triage-test-")
    cmd = "%s %s --bug f32-ftz-bf16-truncated" % (HOST, PLANTED_PLUGIN)
    proc = validate(["run", "--backend-cmd", cmd, "--out", out] + CASES + args)
    with open(os.path.join(out, "results.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    return proc, out, lines[1:]


class Harness(unittest.TestCase):
    pass


class PlantedLibrary(Harness):
    def test_draft_holds_the_two_planted_behaviours_and_the_draft_run_passes(self):
        draft = os.path.join(tempfile.mkdtemp(prefix="eltwise-triage-draft-"), "draft.toml")
        proc, out, cases = planted_run(["--draft-profile", draft])
        self.assertEqual(proc.returncode, 1, proc.stdout[-3000:] + proc.stderr[-2000:])
        failed = [c for c in cases if c["status"] == "FAILED"]
        self.assertEqual({c["dtype"] for c in failed}, {"f32", "bf16"})
        with open(draft) as f:
            text = f.read()
        entries = tomllib.loads(text)["declare"]
        self.assertEqual(sorted(e["behaviours"] for e in entries), sorted([FTZ, TRUNCATED]), text)
        for e in entries:
            f32 = e["behaviours"] == FTZ
            self.assertEqual(e["dtypes"], ["f32"] if f32 else ["bf16"], text)
            want = OPS if f32 else BF16_OPS
            self.assertEqual(sorted(e["ops"]), sorted(want), text)
            self.assertEqual(e["finding"], "TODO")
            self.assertEqual(e["graph_forms"], ["runtime"])
            self.assertEqual(e["arch"], "x86_64")
        self.assertNotIn("Not explained", text)
        # The count of every entry's cases is the FAILED cases of its type.
        for dtype, behaviours in (("f32", FTZ), ("bf16", TRUNCATED)):
            n = len([c for c in failed if c["dtype"] == dtype])
            self.assertIn("# explains %d cases" % n, text)
        # The draft as the profile: no finding left.
        proc2, _, cases2 = planted_run(["--profile", draft])
        self.assertEqual(proc2.returncode, 0, proc2.stdout[-3000:])
        self.assertEqual([c["case"] for c in cases2 if c["status"] == "FAILED"], [])
        self.assertEqual(len([c for c in cases2 if c["status"] == "DEVIATES_AS_DECLARED"]),
                         len(failed))
        # `triage` on the same file drafts the same profile.
        again = os.path.join(out, "again.toml")
        proc3 = validate(["triage", os.path.join(out, "results.jsonl"), "--draft", again])
        self.assertEqual(proc3.returncode, 0, proc3.stderr)
        with open(again) as f:
            self.assertEqual(f.read(), text)
        self.assertIn("explained by 2 drafted entries, 0 unexplained, 0 not triaged",
                      proc3.stdout)
        # every deviating case explained, each counted once
        deviating, explained = re.search(r"(\d+) deviating cases?: (\d+) explained",
                                         proc3.stdout).groups()
        self.assertEqual(deviating, explained, proc3.stdout)


class Inputs(Harness):
    def test_a_bad_results_file_is_a_clear_error(self):
        d = tempfile.mkdtemp(prefix="eltwise-triage-test-")
        bad = os.path.join(d, "results.jsonl")
        with open(bad, "w") as f:
            f.write('{"run": {}}\n{"case": 3}\n')
        proc = validate(["triage", bad, "--draft", os.path.join(d, "draft.toml")])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("results.jsonl:2", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(d, "draft.toml")))

    def test_a_run_without_deviations_drafts_an_empty_profile(self):
        out = tempfile.mkdtemp(prefix="eltwise-triage-test-")
        draft = os.path.join(out, "draft.toml")
        proc = validate(["run", "--backend", "optimized", "--cases", "spec", "--op", OPS[0],
                         "--out", out, "--draft-profile", draft])
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:] + proc.stderr)
        with open(draft) as f:
            text = f.read()
        self.assertEqual(tomllib.loads(text), {})
        self.assertIn("(it has none): nothing to declare", text)
        self.assertIn("triage: 0 deviating cases", proc.stdout)


if __name__ == "__main__":
    unittest.main()
