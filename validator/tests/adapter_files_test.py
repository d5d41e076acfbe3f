"""End-to-end tests of an adapter's own knowledge applied by default (issue 44): `run --backend
NAME` judges by the adapter folder's profile.toml and expected.txt, records each file and its
FNV-1a 64 hash in the run line, `--no-profile` gives the raw verdicts, `--profile` and
`--expected` each replace one default, and `run --resume` goes on only with the same files.

The adapter is `xnnpack` (a plugin on Debian's XNNPACK, no Python): its edge cases deviate in
f32 (flush-to-zero, NaN as -inf), which its profile declares. The hash is computed here from the
file's bytes by the FNV-1a definition, not by the validator.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
SOURCE = os.environ.get("ELTWISE_SOURCE_DIR", "")
XNNPACK = os.path.join(SOURCE, "backends", "adapters", "xnnpack")
EDGE = ["--backend", "xnnpack", "--cases", "edge", "--op", "onnx.Mul-14,onnx.Div-14"]


def fnv1a64(path):
    h = 0xcbf29ce484222325
    with open(path, "rb") as f:
        for byte in f.read():
            h = ((h ^ byte) * 0x100000001b3) % 2**64
    return "%016x" % h


def run(args, out=None):
    out = out or tempfile.mkdtemp(prefix="eltwise-adapter-files-")
    proc = subprocess.run([VALIDATE, "run", "--out", out] + args, capture_output=True, text=True,
                          timeout=600)
    lines = []
    if os.path.exists(os.path.join(out, "results.jsonl")):
        with open(os.path.join(out, "results.jsonl")) as f:
            lines = [json.loads(line) for line in f]
    return proc, out, lines


def statuses(lines):
    return [c["status"] for c in lines[1:]]


def applied(run_line):
    return {f["role"]: f for f in run_line.get("applied_files", [])}


class Harness(unittest.TestCase):
    pass


class Defaults(Harness):
    def setUp(self):
        if not os.path.exists(os.path.join(XNNPACK, "profile.toml")) or subprocess.run(
                [VALIDATE, "list", "--backend", "xnnpack"], capture_output=True).returncode:
            self.skipTest("the xnnpack adapter is not available here")

    def test_the_adapters_files_apply_and_the_run_line_records_them(self):
        proc, _, lines = run(EDGE)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        run_line = lines[0]["run"]
        files = applied(run_line)
        profile = os.path.join(XNNPACK, "profile.toml")
        expected = os.path.join(XNNPACK, "expected.txt")
        self.assertEqual(files["profile"]["path"], profile)
        self.assertEqual(files["profile"]["fnv1a64"], fnv1a64(profile))
        self.assertEqual(files["profile"]["from"], "adapter")
        self.assertEqual(files["expected"]["path"], expected)
        self.assertEqual(files["expected"]["fnv1a64"], fnv1a64(expected))
        self.assertEqual(run_line["options"]["profile"], profile)
        self.assertEqual(run_line["options"]["expected"], expected)
        self.assertFalse(run_line["options"]["no_profile"])
        self.assertIn("DEVIATES_AS_DECLARED", statuses(lines))
        self.assertNotIn("FAILED", statuses(lines))
        self.assertIn("judged by profile " + profile + " (the adapter's own", proc.stdout)

    def test_no_profile_gives_the_raw_verdicts(self):
        _, _, default = run(EDGE)
        proc, _, lines = run(EDGE + ["--no-profile"])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        run_line = lines[0]["run"]
        self.assertNotIn("applied_files", run_line)
        self.assertIsNone(run_line["options"]["profile"])
        self.assertIsNone(run_line["options"]["expected"])
        self.assertTrue(run_line["options"]["no_profile"])
        # The declared cases are the raw run's deviations, case for case.
        declared = {c["case"] for c in default[1:] if c["status"] == "DEVIATES_AS_DECLARED"}
        failed = {c["case"] for c in lines[1:] if c["status"] == "FAILED"}
        self.assertTrue(declared)
        self.assertEqual(declared, failed)
        # Its replay keeps the raw verdicts.
        self.assertTrue(all("--no-profile" in c["replay"] for c in lines[1:] if "replay" in c))
        proc, _, _ = run(EDGE + ["--no-profile", "--profile", os.path.join(XNNPACK,
                                                                           "profile.toml")])
        self.assertEqual(proc.returncode, 2, proc.stderr)

    def test_profile_and_expected_each_replace_their_default(self):
        work = tempfile.mkdtemp(prefix="eltwise-adapter-files-own-")
        own_profile = os.path.join(work, "p.toml")
        with open(own_profile, "w") as f:  # only the NaN behaviour: flushes are findings again
            f.write('[[declare]]\nname = "nan"\nfinding = "docs/findings/xnnpack-1.md"\n'
                    'behaviours = ["nan_results_negative_infinity"]\nops = ["*"]\n'
                    'dtypes = ["f32", "f16"]\n')
        own_expected = os.path.join(work, "e.txt")
        with open(own_expected, "w") as f:
            f.write("# nothing expected\n")
        _, _, lines = run(EDGE + ["--profile", own_profile])
        files = applied(lines[0]["run"])
        self.assertEqual((files["profile"]["path"], files["profile"]["from"]),
                         (own_profile, "option"))
        self.assertEqual(files["profile"]["fnv1a64"], fnv1a64(own_profile))
        self.assertEqual((files["expected"]["path"], files["expected"]["from"]),
                         (os.path.join(XNNPACK, "expected.txt"), "adapter"))
        self.assertIn("FAILED", statuses(lines))
        _, _, lines = run(EDGE + ["--expected", own_expected])
        files = applied(lines[0]["run"])
        self.assertEqual((files["profile"]["path"], files["profile"]["from"]),
                         (os.path.join(XNNPACK, "profile.toml"), "adapter"))
        self.assertEqual((files["expected"]["path"], files["expected"]["from"]),
                         (own_expected, "option"))

    def test_resume_applies_the_recorded_files_and_refuses_changed_ones(self):
        work = tempfile.mkdtemp(prefix="eltwise-adapter-files-resume-")
        profile = os.path.join(work, "profile.toml")
        shutil.copy(os.path.join(XNNPACK, "profile.toml"), profile)
        proc, out, lines = run(EDGE + ["--profile", profile])
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        resumed = subprocess.run([VALIDATE, "run", "--resume", out], capture_output=True,
                                 text=True, timeout=600)
        self.assertEqual(resumed.returncode, 0, resumed.stdout + resumed.stderr)
        self.assertRegex(resumed.stdout, r"declared f32-denormals-off \(.*\): [1-9][0-9]* cases")
        with open(profile, "a") as f:
            f.write("# edited\n")
        resumed = subprocess.run([VALIDATE, "run", "--resume", out], capture_output=True,
                                 text=True, timeout=600)
        self.assertEqual(resumed.returncode, 2, resumed.stdout + resumed.stderr)
        self.assertIn(profile + " (profile) changed since the run began", resumed.stderr)


# The old layout of openvino-onnx/profile.toml lines 24-39: `arch` under the comment of the entry
# below it, bound by TOML to the one above.
OLD_LAYOUT = """ops = ["onnx.*"]

[[declare]]
name = "wide-integers-in-i32"
finding = "docs/findings/openvino-onnx-1.md"
behaviours = ["computed_in_i32", "integer_division_via_f32"]
dtypes = ["i64", "u64", "i32", "u32"]

# i8 and u8 results saturate (openvino-onnx-3).
arch = "x86_64"

[[declare]]
name = "i8-u8-saturate"
finding = "docs/findings/openvino-onnx-3.md"
behaviours = ["integer_results_saturated"]
dtypes = ["i8", "u8"]
"""


class ProfileCommand(Harness):
    def profile(self, *args):
        return subprocess.run([VALIDATE, "profile"] + list(args), capture_output=True, text=True,
                              timeout=60)

    def entry(self, listing, name):
        """The lines of one entry of the listing, from its name line to the blank line."""
        block = listing.split("\n" + name + "  (", 1)[1]
        return block.split("\n\n", 1)[0]

    def test_prints_the_adapters_profile_as_the_judge_reads_it(self):
        proc = self.profile("--backend", "openvino")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = proc.stdout
        folder = os.path.join(SOURCE, "backends", "adapters", "openvino")
        self.assertTrue(out.startswith("profile " + os.path.join(folder, "profile.toml") + "\n"))
        self.assertIn("includes " + os.path.join(folder, "cpu_plugin_profile.toml") + "\n", out)
        # The included file's entry, with its own file and line; the arch that stood under the
        # comment of f64-in-f32 binds, as TOML says, to the entry above, which now shows it.
        toward_zero = self.entry(out, "bf16-results-toward-zero")
        self.assertIn("cpu_plugin_profile.toml:", toward_zero.split("\n")[0])
        self.assertIn("  condition   arch x86_64, cpu lacks avx512_bf16", toward_zero)
        # Spec: Multiply-1 and Divide-1 allow bf16; the entry names only bf16.
        self.assertIn("  scope       openvino.Multiply-1: bf16\n  scope       "
                      "openvino.Divide-1: bf16", toward_zero)
        f64 = self.entry(out, "f64-in-f32")
        self.assertIn("  condition   every platform", f64)
        crash = self.entry(out, "pdpd-int-min-by-minus-one-crashes")
        self.assertIn("  status      CRASHED when int32_min_by_minus_one", crash)
        self.assertIn("  broadcast   pdpd", crash)

    def test_rejects_a_key_cut_off_from_its_entry(self):
        work = tempfile.mkdtemp(prefix="eltwise-profile-layout-")
        path = os.path.join(work, "profile.toml")
        with open(path, "w") as f:
            f.write(OLD_LAYOUT)
        proc = self.profile(path)
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertIn(path + ":10: 'arch' is cut off from the keys of entry "
                      "'wide-integers-in-i32' (line 3)", proc.stderr)
        proc = self.profile("--backend", "nonesuch")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no adapter 'nonesuch'", proc.stderr)


if __name__ == "__main__":
    unittest.main()
