"""End-to-end tests of `run --profile`: declared behaviours judged against a backend whose
deviation is real hardware behaviour (the planted plugin's x86-ftz: SSE arithmetic with MXCSR's
FTZ and DAZ bits set), not a simulation of the model under test.

What must hold comes from hand reasoning about x86 flush-to-zero: with both flush behaviours
declared the backend has no findings, the min_normal round-up case included; one more wrong
element is exactly one FAILED element; a behaviour the backend does not show is stale; an entry
whose platform condition fails changes nothing.
"""
import json
import os
import subprocess
import tempfile
import unittest

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
HOST = os.environ.get("ELTWISE_HOST", "eltwise-backend-host")
PLANTED_PLUGIN = os.environ.get("ELTWISE_PLANTED_PLUGIN", "")

FTZ_ENTRY = """
[[declare]]
name = "x86-ftz-daz"
finding = "docs/findings/README.md"
behaviours = ["subnormal_inputs_zero", "subnormal_results_flushed"]
ops = ["*"]
dtypes = ["f32", "f64"]
%s
"""
STALE_ENTRY = """
[[declare]]
name = "u8-saturates"
finding = "docs/findings/README.md"
behaviours = ["integer_results_saturated"]
ops = ["onnx.Mul-14"]
dtypes = ["u8"]
"""


def write_profile(text):
    fd, path = tempfile.mkstemp(prefix="eltwise-profile-", suffix=".toml")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def run(bug, args):
    out = tempfile.mkdtemp(prefix="eltwise-profile-test-")
    cmd = "%s %s --bug %s" % (HOST, PLANTED_PLUGIN, bug)
    proc = subprocess.run([VALIDATE, "run", "--backend-cmd", cmd, "--out", out, "--seed", "1"] +
                          args, capture_output=True, text=True, timeout=900)
    with open(os.path.join(out, "results.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    return proc, lines[0]["run"], lines[1:]


def by_status(cases, status):
    return [c for c in cases if c["status"] == status]


FLOAT_CASES = ["--cases", "edge,random", "--dtype", "f32,f64", "--count", "3"]


class Harness(unittest.TestCase):
    pass


class DeclaredFlush(Harness):
    def test_flush_declared_leaves_no_finding(self):
        proc, run_line, cases = run("x86-ftz", FLOAT_CASES + ["--profile",
                                                              write_profile(FTZ_ENTRY % "")])
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-2000:])
        self.assertEqual(by_status(cases, "FAILED"), [])
        declared = by_status(cases, "DEVIATES_AS_DECLARED")
        self.assertGreater(len(declared), 5)
        for c in declared:
            self.assertEqual(list(c["declared"]), ["x86-ftz-daz"], c["case"])
        # The platform is in the run line, as the host's CPU reports it.
        self.assertIn("sse2", run_line["platform"]["cpu_features"])
        self.assertEqual(run_line["platform"]["arch"], "x86_64")

    def test_round_up_to_min_normal_is_what_allow_ftz_misses(self):
        # min_normal * (1 - 2^-24) rounds up to min_normal in IEEE arithmetic, and x86 flushes
        # it: --allow-ftz (flush of a subnormal result only) leaves those cases FAILED; the
        # declared behaviour explains them.
        proc, _, cases = run("x86-ftz", FLOAT_CASES + ["--allow-ftz"])
        failed = by_status(cases, "FAILED")
        self.assertNotEqual(failed, [], "the edge tables lost their min_normal round-up case")
        round_up = [m for c in failed for m in c.get("mismatches", [])
                    if m["expected_bits"] in ("0x00800000", "0x80800000",
                                              "0x0010000000000000", "0x8010000000000000")]
        self.assertNotEqual(round_up, [])
        for m in round_up:
            sign = 1 << (4 * (len(m["actual_bits"]) - 2) - 1)
            self.assertEqual(int(m["actual_bits"], 16) & ~sign, 0, m)

    def test_one_more_wrong_element_is_exactly_that_element(self):
        proc, _, cases = run("x86-ftz-one-wrong",
                             FLOAT_CASES + ["--op", "onnx.Mul-14", "--profile",
                                            write_profile(FTZ_ENTRY % "")])
        self.assertEqual(proc.returncode, 1)
        failed = by_status(cases, "FAILED")
        self.assertNotEqual(failed, [])
        for c in failed:
            self.assertEqual(c["dtype"], "f32", c["case"])
            self.assertEqual(sum(c["categories"].values()), 1, c["case"])
            shown = c.get("minimal", c)
            self.assertEqual(shown["mismatches"][0]["index"], 0, c["case"])
        # A case with flushed elements and the wrong one: the flush is declared, the element not.
        self.assertTrue(any("declared" in c for c in failed), [c["case"] for c in failed])

    def test_undeclared_behaviour_is_stale(self):
        proc, _, _ = run("x86-ftz", ["--cases", "edge,random", "--op", "onnx.Mul-14", "--dtype",
                                     "f32,u8", "--count", "2", "--profile",
                                     write_profile(FTZ_ENTRY % "" + STALE_ENTRY)])
        self.assertIn("declared u8-saturates (docs/findings/README.md): stale", proc.stdout)
        self.assertRegex(proc.stdout, r"declared x86-ftz-daz \(docs/findings/README.md\): \d+ cases")

    def test_condition_that_does_not_hold_leaves_entry_inert(self):
        # Every x86-64 CPU has SSE2: "cpu_lacks = sse2" never holds.
        profile = write_profile(FTZ_ENTRY % 'cpu_lacks = ["sse2"]')
        proc, _, cases = run("x86-ftz", FLOAT_CASES + ["--profile", profile])
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(by_status(cases, "DEVIATES_AS_DECLARED"), [])
        self.assertNotEqual(by_status(cases, "FAILED"), [])
        self.assertIn("declared x86-ftz-daz (docs/findings/README.md): inert on this platform",
                      proc.stdout)


class BadProfiles(Harness):
    def test_bad_profile_is_a_usage_error_that_keeps_earlier_results(self):
        out = tempfile.mkdtemp(prefix="eltwise-profile-test-")
        keep = os.path.join(out, "results.jsonl")
        with open(keep, "w") as f:
            f.write("earlier\n")
        for text, message in [
                ("[[declare]]\nname='x'\nfinding='f'\nbehaviours=['bogus']\nops=['*']\n",
                 "unknown behaviour 'bogus'"),
                ("[[declare]]\nname='x'\nfinding='f'\nbehaviours=['infinities_clamped']\n",
                 "has no 'ops'"),
                ("[[declare]]\nname='x'\nfinding='f'\nbehaviours=['infinities_clamped']\n"
                 "ops=['*']\ncpu_has=['avx1024']\n", "unknown CPU feature 'avx1024'"),
                ("[[declare]\n", "eltwise-profile-")]:
            proc = subprocess.run([VALIDATE, "run", "--backend", "reference", "--out", out,
                                   "--profile", write_profile(text)],
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn(message, proc.stderr)
            with open(keep) as f:
                self.assertEqual(f.read(), "earlier\n")


if __name__ == "__main__":
    unittest.main()
