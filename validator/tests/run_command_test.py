"""End-to-end tests of `eltwise-validate run` against real child backends.

Each test runs the validator as a user would and reads results.jsonl. Expected statuses,
categories and values come from the spec and from hand computation (the planted bugs are
known functions: a u8 product clamped to 255, floor where the spec truncates, ...), never from
the validator's own output. Paths come from the environment (set by CMake).
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import numpy

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
HOST = os.environ.get("ELTWISE_HOST", "eltwise-backend-host")
OPTIMIZED_PLUGIN = os.environ.get("ELTWISE_OPTIMIZED_PLUGIN", "")
FAULT_PLUGIN = os.environ.get("ELTWISE_FAULT_PLUGIN", "")
PLANTED_PLUGIN = os.environ.get("ELTWISE_PLANTED_PLUGIN", "")
PY_BACKENDS = os.environ.get("ELTWISE_PY_BACKENDS", "")
PYTHON = "/usr/bin/python3"
EXAMPLE = PYTHON + " -m eltwise_adapter_kit.example"  # PYTHONPATH has the kit (set by CMake)


def run(args, timeout=600):
    out = tempfile.mkdtemp(prefix="eltwise-run-test-")
    proc = subprocess.run([VALIDATE, "run", "--out", out] + args, capture_output=True,
                          text=True, timeout=timeout)
    return proc, out


def results(out):
    with open(os.path.join(out, "results.jsonl")) as f:
        lines = [json.loads(line) for line in f]
    assert "run" in lines[0], lines[0]
    return lines[1:]


def statuses(cases):
    counts = {}
    for c in cases:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    return counts


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Harness(unittest.TestCase):
    def assert_exit(self, proc, code):
        self.assertEqual(proc.returncode, code,
                         "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode,
                                                                proc.stdout[-3000:],
                                                                proc.stderr[-3000:]))

    def assert_all_pass(self, cases):
        bad = [c for c in cases if c["status"] not in ("PASSED", "UNSUPPORTED")]
        self.assertEqual(bad[:3], [])


class Conforming(Harness):
    """Done-when 1: conforming backends pass every default case, in process and through the host."""

    def test_optimized_in_process(self):
        proc, out = run(["--backend", "optimized"])
        self.assert_exit(proc, 0)
        cases = results(out)
        self.assert_all_pass(cases)
        sources = {c["source"] for c in cases}
        self.assertEqual(sources, {"spec", "edge", "random", "invalid", "exhaustive8", "onnx"})
        self.assertGreater(statuses(cases).get("PASSED", 0), 1000)
        # invalid cases pass by being rejected
        self.assertTrue(any(c["source"] == "invalid" and c["status"] == "PASSED" for c in cases))

    def test_progress_lines_off_a_terminal(self):
        # stderr is a pipe here: progress lines come every --progress-seconds, not only at a tty
        proc, out = run(["--backend", "reference", "--cases", "spec", "--op", "onnx.Mul-14",
                         "--progress-seconds", "0"])
        self.assert_exit(proc, 0)
        lines = [l for l in proc.stderr.splitlines() if l.startswith("progress [")]
        self.assertEqual(len(lines), len(results(out)), proc.stderr[-2000:])
        self.assertIn("PASSED", lines[-1])

    def test_optimized_plugin_through_host(self):
        proc, out = run(["--backend-cmd", "%s %s" % (HOST, OPTIMIZED_PLUGIN)])
        self.assert_exit(proc, 0)
        self.assert_all_pass(results(out))

    def test_numpy_example_backend(self):
        proc, out = run(["--backend-cmd", EXAMPLE,
                         "--cases", "spec,edge,random,invalid", "--count", "2"])
        self.assert_exit(proc, 0)
        counts = statuses(results(out))
        self.assertGreater(counts.get("PASSED", 0), 100)
        self.assertGreater(counts.get("UNSUPPORTED", 0), 0)  # bf16, truncation


class Faults(Harness):
    """Done-when 2: each fault gets its status, the run completes, later cases still pass."""

    def fault_run(self, command, op="onnx.Mul-14", dtype="i32", exit_code=1):
        proc, out = run(["--backend-cmd", command, "--cases", "spec,edge", "--op",
                         "onnx.Mul-14,onnx.Mul-13", "--timeout", "2"], timeout=900)
        self.assert_exit(proc, exit_code)
        cases = results(out)
        hit = [c for c in cases if c["op"] == op and c["dtype"] == dtype and c["valid"]]
        rest = [c for c in cases if not (c["op"] == op and c["dtype"] == dtype)]
        self.assertTrue(hit, "no case of the faulty pair ran")
        self.assertTrue(rest, "no other case ran")
        self.assert_all_pass(rest)
        return hit

    def python_fault(self, kind):
        return "%s %s/fault_backend.py --fault %s --on-op onnx.Mul-14 --on-dtype i32" % (
            PYTHON, PY_BACKENDS, kind)

    def plugin_fault(self, kind):
        return "%s %s --fault %s --on-op onnx.Mul-14 --on-dtype i32" % (HOST, FAULT_PLUGIN, kind)

    def expect(self, hit, status, message_part=None):
        for c in hit:
            self.assertEqual(c["status"], status, c)
            if message_part:
                self.assertIn(message_part, c.get("message", ""), c)

    def test_plugin_crash_segv(self):
        self.expect(self.fault_run(self.plugin_fault("crash-segv")), "CRASHED", "SIGSEGV")

    def test_plugin_crash_fpe(self):
        self.expect(self.fault_run(self.plugin_fault("crash-fpe")), "CRASHED", "SIGFPE")

    def test_plugin_crash_abrt(self):
        self.expect(self.fault_run(self.plugin_fault("crash-abrt")), "CRASHED", "SIGABRT")

    def test_plugin_exit(self):
        self.expect(self.fault_run(self.plugin_fault("exit")), "CRASHED", "exit status 3")

    def test_plugin_hang(self):
        self.expect(self.fault_run(self.plugin_fault("hang")), "HUNG")

    def test_plugin_stdout_garbage(self):
        self.expect(self.fault_run(self.plugin_fault("stdout-garbage")), "PROTOCOL_ERROR")

    def test_plugin_wrong_shape(self):
        hit = self.fault_run(self.plugin_fault("wrong-shape"))
        self.expect(hit, "FAILED")
        for c in hit:
            self.assertIn("shape", c["categories"])

    def test_plugin_wrong_dtype(self):
        hit = self.fault_run(self.plugin_fault("wrong-dtype"))
        self.expect(hit, "FAILED")
        for c in hit:
            self.assertIn("dtype", c["categories"])

    def test_python_crash_abrt(self):
        self.expect(self.fault_run(self.python_fault("crash-abrt")), "CRASHED", "SIGABRT")

    def test_python_crash_segv(self):
        self.expect(self.fault_run(self.python_fault("crash-segv")), "CRASHED", "SIGSEGV")

    def test_python_hang(self):
        self.expect(self.fault_run(self.python_fault("hang")), "HUNG")

    def test_python_garbage(self):
        self.expect(self.fault_run(self.python_fault("garbage")), "PROTOCOL_ERROR")

    def test_python_wrong_id(self):
        self.expect(self.fault_run(self.python_fault("wrong-id")), "PROTOCOL_ERROR")

    def test_python_no_output(self):
        self.expect(self.fault_run(self.python_fault("no-output")), "PROTOCOL_ERROR")

    def test_python_region_no_output(self):
        # PROTOCOL.md 9.17: the region's magic is spoiled before each call, so "in_region" with
        # nothing written is caught, and the message names the region, not a missing file.
        self.expect(self.fault_run(self.python_fault("region-no-output")), "PROTOCOL_ERROR",
                    "out_region /proc/")

    def test_python_region_overflow(self):
        self.expect(self.fault_run(self.python_fault("region-overflow")), "PROTOCOL_ERROR",
                    "data is shorter than the header says")

    def test_python_region_shrink_is_refused(self):
        hit = self.fault_run(self.python_fault("region-shrink"), exit_code=0)
        self.assert_all_pass(hit)

    def test_python_truncated(self):
        self.expect(self.fault_run(self.python_fault("truncated")), "PROTOCOL_ERROR")

    def test_python_stderr_flood(self):
        hit = self.fault_run(self.python_fault("stderr-flood"), exit_code=0)
        self.assert_all_pass(hit)

    def test_python_bad_hello(self):
        proc, out = run(["--backend-cmd", "%s %s/fault_backend.py --fault bad-hello" % (
            PYTHON, PY_BACKENDS), "--cases", "spec"])
        self.assert_exit(proc, 1)
        with open(os.path.join(out, "results.jsonl")) as f:
            first = json.loads(f.readline())
        self.assertIn("PROTOCOL_ERROR", first["run"]["error"])


def u8(x):
    return int(x) & 0xFF


class PlantedBugs(Harness):
    """Done-when 3: each planted bug is FAILED (or ACCEPTED_INVALID) with the right category,
    a random failure shrinks to at most 4 output elements, and its repro replays."""

    def shrunk_failure(self, command, op, dtype, category, extra=()):
        proc, out = run(["--backend-cmd", command, "--cases", "random", "--op", op, "--dtype",
                         dtype, "--count", "5"] + list(extra))
        self.assert_exit(proc, 1)
        failed = [c for c in results(out) if c["status"] == "FAILED"]
        self.assertTrue(failed, "the planted bug went unnoticed")
        c = failed[0]
        self.assertIn(category, c["categories"])
        self.assertIn("shrunk", c, c)
        # narrowed to the pairs that fail, or down the generator's shrink tree
        self.assertRegex(c["shrunk"], "^" + re.escape(c["case"]) + ":(pairs|shrink)=")
        return out, c

    def replay(self, command, case_id):
        proc, out = run(["--backend-cmd", command, "--case", case_id])
        self.assert_exit(proc, 1)
        [c] = results(out)
        return c

    def check_shrunk_size(self, command, c, limit=4):
        """The shrunk id replays the failure, on at most `limit` output elements."""
        replayed = self.replay(command, c["shrunk"])
        a, b = replayed["shapes"]
        self.assertEqual(replayed["status"], "FAILED")
        # the op versions tested here broadcast the numpy way
        output = numpy.broadcast_shapes(tuple(a), tuple(b))
        self.assertLessEqual(elements(output), limit, replayed["shapes"])
        return replayed

    def test_saturating_u8_multiply(self):
        cmd = "%s %s --bug saturate-u8" % (HOST, PLANTED_PLUGIN)
        out, c = self.shrunk_failure(cmd, "onnx.Mul-14", "u8", "integer_saturation")
        replayed = self.check_shrunk_size(cmd, c)
        for m in replayed["mismatches"]:  # hand rule: wrap is (a*b) mod 256, the bug clamps
            a, b = int(m["a"]), int(m["b"])
            self.assertEqual(int(m["expected"]), (a * b) % 256)
            self.assertEqual(int(m["actual"]), min(a * b, 255))
        # the saved ONNX node-test directory reproduces the failure through the onnx source
        # (the minimal case's; the case's own files are kept in original/ beside them)
        onnx_dirs = [f for f in c["files"] if f.endswith("/onnx") and "/original/" not in f]
        self.assertEqual(len(onnx_dirs), 1)
        proc, out2 = run(["--backend-cmd", cmd, "--cases", "onnx", "--onnx-dir", onnx_dirs[0],
                          "--source", "onnx"])
        self.assert_exit(proc, 1)
        mine = [x for x in results(out2) if x["case"].startswith("onnx:onnx:")]
        self.assertEqual([x["status"] for x in mine], ["FAILED"])
        self.assertIn("integer_saturation", mine[0]["categories"])

    def test_floor_for_trunc(self):
        cmd = "%s %s/planted_bug_backend.py --bug floor-for-trunc" % (PYTHON, PY_BACKENDS)
        out, c = self.shrunk_failure(cmd, "onnx.Div-14", "i32", "floor_vs_trunc")
        replayed = self.check_shrunk_size(cmd, c)
        for m in replayed["mismatches"]:  # truncation vs floor, by hand
            a, b = int(m["a"]), int(m["b"])
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            self.assertEqual(int(m["expected"]), q)
            self.assertEqual(int(m["actual"]), a // b)

    def test_flush_to_zero(self):
        cmd = "%s %s --bug ftz" % (HOST, PLANTED_PLUGIN)
        out, c = self.shrunk_failure(cmd, "onnx.Mul-14", "f32", "subnormal_flush")
        self.check_shrunk_size(cmd, c)
        # ... and --allow-ftz accepts it, saying so
        proc, out2 = run(["--backend-cmd", cmd, "--allow-ftz", "--case", c["case"]])
        [r] = results(out2)
        self.assertEqual(r["status"], "PASSED", r)
        self.assertIn("ftz", r["allowed_by"])

    def test_lost_negative_zero(self):
        cmd = "%s %s --bug lost-negative-zero" % (HOST, PLANTED_PLUGIN)
        out, c = self.shrunk_failure(cmd, "onnx.Mul-14", "f64", "signed_zero")
        self.check_shrunk_size(cmd, c)

    def test_lost_negative_zero_python(self):
        cmd = "%s %s/planted_bug_backend.py --bug lost-negative-zero" % (PYTHON, PY_BACKENDS)
        out, c = self.shrunk_failure(cmd, "onnx.Div-14", "f32", "signed_zero")
        self.check_shrunk_size(cmd, c)

    def test_f16_toward_zero(self):
        cmd = "%s %s --bug f16-toward-zero" % (HOST, PLANTED_PLUGIN)
        out, c = self.shrunk_failure(cmd, "onnx.Div-14", "f16", "rounding")
        self.check_shrunk_size(cmd, c)

    def test_unbroadcastable_accepted(self):
        cmd = "%s %s/planted_bug_backend.py --bug accept-unbroadcastable" % (PYTHON, PY_BACKENDS)
        proc, out = run(["--backend-cmd", cmd, "--cases", "invalid", "--op", "onnx.Mul-14"])
        self.assert_exit(proc, 1)
        cases = results(out)
        # numpy has no bfloat16: the backend answers unsupported for those
        shape_cases = [c for c in cases if ":shape:" in c["case"] and c["dtype"] != "bf16"]
        self.assertTrue(shape_cases)
        self.assertEqual({c["status"] for c in shape_cases}, {"ACCEPTED_INVALID"})
        others = [c for c in cases if ":shape:" not in c["case"]]
        self.assert_all_pass(others)

    def test_wrong_rejection_reason(self):
        """A rejection whose reason class is not the case's invalidity is FAILED."""
        cmd = "%s %s/planted_bug_backend.py --bug wrong-rejection-reason" % (PYTHON, PY_BACKENDS)
        proc, out = run(["--backend-cmd", cmd, "--cases", "invalid", "--op", "onnx.Mul-14"])
        self.assert_exit(proc, 1)
        cases = results(out)
        # near-miss shapes are invalid because of their shapes, not their type
        shape_cases = [c for c in cases if ":shape:" in c["case"] and c["dtype"] != "bf16"]
        self.assertTrue(shape_cases)
        self.assertEqual({c["status"] for c in shape_cases}, {"FAILED"})
        for c in shape_cases:
            self.assertEqual(c["categories"], {"rejection_reason": 1}, c)
        # disallowed and mixed types are rejected for their type, rightly
        type_cases = [c for c in cases if ":dtype:" in c["case"] or ":mixed:" in c["case"]]
        self.assertTrue(type_cases)
        self.assert_all_pass(type_cases)


class UndefinedElements(Harness):
    """Integer x / 0 is undefined (docs/SEMANTICS.md 2.3): a backend that refuses such a call
    still has its defined elements checked, in the same call with divisor 1 at those places."""
    CMD = "%s %s/planted_bug_backend.py --bug refuses-zero-divisor" % (PYTHON, PY_BACKENDS)
    replay = PlantedBugs.replay
    check_shrunk_size = PlantedBugs.check_shrunk_size

    def test_defined_elements_of_a_refused_call_are_checked(self):
        # the bug's other half floors where Div-14 truncates: a defined element is wrong
        proc, out = run(["--backend-cmd", self.CMD, "--cases", "random", "--op", "onnx.Div-14",
                         "--dtype", "i32", "--count", "5"])
        self.assert_exit(proc, 1)
        refused = [c for c in results(out) if c.get("undefined_refused")]
        self.assertTrue(refused, "no random case had a zero divisor")
        c = refused[0]
        self.assertEqual(c["status"], "FAILED", c)
        self.assertIn("floor_vs_trunc", c["categories"])
        self.assertIn("shrunk", c)
        self.assertIn("--out", c["replay"])
        replayed = self.check_shrunk_size(self.CMD, c)
        for m in replayed["mismatches"]:  # truncation vs floor, by hand
            a, b = int(m["a"]), int(m["b"])
            self.assertNotEqual(b, 0)
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            self.assertEqual(int(m["expected"]), q)
            self.assertEqual(int(m["actual"]), a // b)

    def test_refusal_alone_is_not_a_deviation(self):
        # u8: floor and truncation agree, so only the refusal of x / 0 remains
        args = ["--backend-cmd", self.CMD, "--cases", "random,exhaustive8", "--op",
                "onnx.Div-14", "--dtype", "u8", "--count", "3"]
        proc, out = run(args)
        self.assert_exit(proc, 0)
        cases = {c["case"]: c for c in results(out)}
        # exhaustive8 splits the zero divisor off: 255 x 256 defined pairs pass
        self.assertEqual(cases["exhaustive8:onnx.Div-14:u8"]["status"], "PASSED")
        zero = cases["exhaustive8:onnx.Div-14:u8:b=0x00"]
        self.assertEqual(zero["status"], "REFUSED_UNDEFINED")
        self.assertEqual(zero["undefined_refused"], 256)
        self.assertEqual(zero["shapes"], [[256, 1], [1]])
        # ... unless the user counts it
        proc, out = run(args + ["--undefined-refusal", "deviation"])
        self.assert_exit(proc, 1)
        cases = {c["case"]: c for c in results(out)}
        self.assertEqual(cases["exhaustive8:onnx.Div-14:u8:b=0x00"]["status"], "ERROR")
        self.assertEqual(cases["exhaustive8:onnx.Div-14:u8"]["status"], "PASSED")

    def test_replay_keeps_the_run_directory(self):
        proc, out = run(["--backend-cmd", self.CMD, "--cases", "exhaustive8", "--op",
                         "onnx.Div-14", "--dtype", "i8"])
        self.assert_exit(proc, 1)
        [failed] = [c for c in results(out) if c["status"] == "FAILED"]
        before = open(os.path.join(out, "results.jsonl")).read()
        replay = subprocess.run(failed["replay"].replace("eltwise-validate", VALIDATE, 1),
                                shell=True, cwd="/", capture_output=True, text=True, timeout=600)
        self.assertEqual(replay.returncode, 1, replay.stdout + replay.stderr)
        self.assertEqual(open(os.path.join(out, "results.jsonl")).read(), before)
        [again] = results(os.path.join(out, "replay"))
        # the replay line names the minimal case (the pair of the first mismatch)
        self.assertEqual((again["case"], again["status"]), (failed["shrunk"], "FAILED"))


class GraphForms(Harness):
    """The same case run with its inputs fed at run time and as constants of the graph: a defect
    of one form is found in that form alone."""
    CMD = "%s %s/planted_bug_backend.py --bug const-b-reciprocal" % (PYTHON, PY_BACKENDS)
    ALL = "runtime,const-a,const-b,const-ab,dynamic"
    replay = PlantedBugs.replay
    check_shrunk_size = PlantedBugs.check_shrunk_size

    def test_defect_in_one_form_only(self):
        proc, out = run(["--backend-cmd", self.CMD, "--graph-forms", self.ALL, "--cases",
                         "random", "--op", "onnx.Div-14", "--dtype", "f32", "--count", "5"])
        self.assert_exit(proc, 1)
        cases = results(out)
        # the backend builds runtime and const-b only: the other forms are not planned
        self.assertEqual({c["graph_form"] for c in cases}, {"runtime", "const-b"})
        runtime = [c for c in cases if c["graph_form"] == "runtime"]
        const_b = [c for c in cases if c["graph_form"] == "const-b"]
        self.assertEqual(len(runtime), len(const_b))
        self.assert_all_pass(runtime)
        failed = [c for c in const_b if c["status"] == "FAILED"]
        self.assertTrue(failed, "the const-b defect went unnoticed")
        c = failed[0]
        self.assertTrue(c["case"].startswith("const-b/random:"), c["case"])
        self.assertRegex(c["shrunk"], "^" + re.escape(c["case"]) + ":(pairs|shrink)=")
        replayed = self.check_shrunk_size(self.CMD, c)
        self.assertEqual(replayed["graph_form"], "const-b")
        for m in replayed["mismatches"]:  # a * (1/b) in f32 instead of a / b, by hand
            a, b = numpy.float32(m["a"]), numpy.float32(m["b"])
            with numpy.errstate(all="ignore"):
                self.assertEqual(numpy.float32(m["actual"]), a * (numpy.float32(1) / b))
                self.assertEqual(numpy.float32(m["expected"]), a / b)
        # the report lists the cases whose forms disagree, each form's status side by side
        summary = os.path.join(out, "summary.json")
        subprocess.run([VALIDATE, "report", os.path.join(out, "results.jsonl"), "--summary",
                        summary], check=True, capture_output=True)
        with open(summary) as f:
            listed = json.load(f)["form_disagreements"]
        self.assertIn({"runtime": "PASSED", "const-b": "FAILED"},
                      [d["forms"] for d in listed if d["case"] == c["case"][len("const-b/"):]])

    def test_runtime_expectations_cover_other_forms(self):
        cmd = "%s %s/planted_bug_backend.py --bug lost-negative-zero --graph-forms runtime,const-b" % (
            PYTHON, PY_BACKENDS)
        base = ["--backend-cmd", cmd, "--cases", "edge", "--op", "onnx.Mul-14", "--dtype", "f32"]
        baseline = os.path.join(tempfile.mkdtemp(), "expected.txt")
        proc, out = run(base + ["--write-expected", baseline])  # the runtime form only
        self.assert_exit(proc, 1)
        with open(baseline) as f:
            lines = [line.split() for line in f if not line.startswith("#")]
        self.assertTrue(lines)
        self.assertFalse([l for l in lines if "/" in l[0]], lines)
        forms = base + ["--graph-forms", "runtime,const-b", "--expected", baseline]
        proc, out = run(forms)
        self.assert_exit(proc, 0)  # const-b's -0 deviations are the runtime lines' finding
        const_b = [c for c in results(out) if c["graph_form"] == "const-b"]
        self.assertEqual({c["case"][len("const-b/"):] for c in const_b if c["status"] == "FAILED"},
                         {l[0] for l in lines})

    def test_backend_without_forms_runs_runtime_only(self):
        # (--list-cases does not start the backend, so it lists every form: a run is needed)
        base = ["--backend-cmd", EXAMPLE, "--cases", "spec", "--op", "onnx.Mul-14"]
        proc, out = run(base + ["--graph-forms", self.ALL])
        self.assert_exit(proc, 0)
        cases = results(out)
        self.assertTrue(cases)
        self.assertEqual({c["graph_form"] for c in cases}, {"runtime"})
        proc, plain = run(base)
        self.assertEqual(sorted(c["case"] for c in results(plain)),
                         sorted(c["case"] for c in cases))


class ShrinkingAndReplay(Harness):
    """Issue 44: a crash shrinks to its one offending pair in about log2(N) tries, an element-wise
    fault in a big case to one element, within a time budget; a replay runs exactly its case."""
    CRASH = "%s %s/planted_bug_backend.py --bug crash-int-min-by-minus-one" % (PYTHON, PY_BACKENDS)
    FLOOR = "%s %s/planted_bug_backend.py --bug floor-for-trunc" % (PYTHON, PY_BACKENDS)
    # A [1,63,1,63] x [1,63,1,1] case: 3969 pairs, 2016 of them INT_MIN / -1 (hand count below)
    CRASH_CASE = "random:openvino.Divide-1:i64:pdpd:trunc:seed=1:n=7"
    # [64,64,64,1,1] x [64,64] (legacy broadcast=1, axis=0): 262,144 f16 products. Rounded
    # toward zero, about 75,000 of them are wrong; the shrink tree alone, within 50 tries, left
    # the case at its full size (measured).
    BIG_CASE = "random:onnx.Mul-6:f16:onnx_legacy:seed=1:n=0"
    TOWARD_ZERO = "%s %s --bug f16-toward-zero" % (HOST, PLANTED_PLUGIN)

    def test_crash_shrinks_to_one_pair_in_log2_tries(self):
        proc, out = run(["--backend-cmd", self.CRASH, "--cases", "random", "--op",
                         "openvino.Divide-1", "--dtype", "i64", "--count", "8"])
        self.assert_exit(proc, 1)
        [c] = [c for c in results(out) if c["case"] == self.CRASH_CASE]
        self.assertEqual(c["status"], "CRASHED", c)
        pairs = elements(c["shapes"][0])  # A holds every output element here
        self.assertEqual(pairs, 3969)
        m = c["minimal"]
        self.assertEqual(m["shapes"], [[1], [1]], m)
        self.assertEqual(m["status"], "CRASHED")
        self.assertNotIn("cut_short", m)
        # one bisection step (at most two tries) per halving of 3969 pairs: 12 halvings
        self.assertLessEqual(m["tries"], 2 * 12)
        self.assertGreaterEqual(m["shrink_seconds"], 0)
        self.assertTrue(c["shrunk"].startswith(self.CRASH_CASE + ":pairs="), c["shrunk"])
        # the minimal case is one INT_MIN / -1 pair, and its id replays it without shrinking
        replayed = self.replay_line(c)
        self.assertEqual(replayed["status"], "CRASHED")
        self.assertEqual(replayed["shapes"], [[1], [1]])
        self.assertNotIn("minimal", replayed)
        [a_file] = [f for f in c["files"] if f.endswith("/a.npy") and "/original/" not in f]
        [b_file] = [f for f in c["files"] if f.endswith("/b.npy") and "/original/" not in f]
        self.assertEqual(int(numpy.load(a_file)[0]), -2**63)
        self.assertEqual(int(numpy.load(b_file)[0]), -1)
        # the case's own inputs are kept beside the minimal case's (for triage)
        [a_case] = [f for f in c["files"] if f.endswith("/original/a.npy")]
        [b_case] = [f for f in c["files"] if f.endswith("/original/b.npy")]
        self.assertEqual([list(numpy.load(a_case).shape), list(numpy.load(b_case).shape)],
                         c["shapes"])

    def replay_line(self, c, expect_exit=1):
        """Runs the case's printed replay line as a user would; returns its one case line."""
        proc = subprocess.run(c["replay"].replace("eltwise-validate", VALIDATE, 1), shell=True,
                              cwd="/", capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, expect_exit, proc.stdout + proc.stderr)
        out = re.search(r"--out '?([^' ]+)'?", c["replay"]).group(1)
        lines = results(out)
        return lines[-1]

    def test_element_fault_in_a_big_case_reaches_one_element_in_few_tries(self):
        proc, out = run(["--backend-cmd", self.TOWARD_ZERO, "--case", self.BIG_CASE])
        self.assert_exit(proc, 1)
        [c] = results(out)
        self.assertEqual(c["shapes"], [[64, 64, 64, 1, 1], [64, 64]])
        self.assertNotIn("minimal", c)  # a --case run is a replay: not shrunk
        proc, out = run(["--backend-cmd", self.TOWARD_ZERO, "--cases", "random", "--op",
                         "onnx.Mul-6", "--dtype", "f16", "--count", "1", "--shrink-budget", "50"])
        self.assert_exit(proc, 1)
        [c] = [c for c in results(out) if c["case"] == self.BIG_CASE]
        self.assertEqual(c["status"], "FAILED")
        m = c["minimal"]
        self.assertLessEqual(m["tries"], 50)
        # legacy broadcasting: the output has A's shape, the larger input's
        self.assertLessEqual(max(elements(s) for s in m["shapes"]), 8)
        self.assertTrue(set(m["categories"]) <= set(c["categories"]), m)
        for x in m["mismatches"]:  # by hand: toward zero is one step nearer zero than nearest
            expected, actual = int(x["expected_bits"], 16), int(x["actual_bits"], 16)
            self.assertEqual(actual & 0x8000, expected & 0x8000)
            self.assertEqual(actual & 0x7FFF, (expected & 0x7FFF) - 1)
        # the case's own time and the shrinking's are apart
        self.assertGreater(c["seconds"], 0)
        self.assertGreaterEqual(m["shrink_seconds"], 0)

    def test_replay_runs_exactly_its_case_and_stays_in_its_directory(self):
        proc, out = run(["--backend-cmd", self.FLOOR, "--cases", "random", "--op",
                         "onnx.Div-14", "--dtype", "i32", "--count", "5"])
        self.assert_exit(proc, 1)
        c = [c for c in results(out) if c["status"] == "FAILED"][0]
        self.assertIn("shrunk", c)
        first = self.replay_line(c)
        self.assertEqual(first["case"], c["shrunk"])
        self.assertNotIn("shrunk", first)
        self.assertNotIn("minimal", first)
        # a replay's replay line writes where the replay did, not into replay/replay
        self.assertIn("--out " + os.path.join(out, "replay") + " ", first["replay"])
        second = self.replay_line(first)
        self.assertEqual(second["case"], c["shrunk"])
        self.assertFalse(os.path.exists(os.path.join(out, "replay", "replay")))

    def test_replay_line_keeps_profile_expected_and_timeout(self):
        folder = tempfile.mkdtemp()
        expected = os.path.join(folder, "expected.txt")
        profile = os.path.join(folder, "profile.toml")
        with open(expected, "w") as f:
            f.write("# nothing expected\n")
        with open(profile, "w") as f:
            f.write("# nothing declared\n")
        proc, out = run(["--backend-cmd", self.FLOOR, "--cases", "random", "--op",
                         "onnx.Div-14", "--dtype", "i32", "--count", "2", "--shrink-budget",
                         "0", "--expected", expected, "--profile", profile, "--timeout", "7.5"])
        self.assert_exit(proc, 1)
        c = [c for c in results(out) if c["status"] == "FAILED"][0]
        self.assertIn("--profile " + profile + " ", c["replay"])
        self.assertIn("--expected " + expected + " ", c["replay"])
        self.assertIn("--timeout 7.5 ", c["replay"])

    def test_shrinking_cut_short_says_so(self):
        proc, out = run(["--backend-cmd", self.CRASH, "--cases", "random", "--op",
                         "openvino.Divide-1", "--dtype", "i64", "--count", "8",
                         "--shrink-budget", "3"])
        self.assert_exit(proc, 1)
        [c] = [c for c in results(out) if c["case"] == self.CRASH_CASE]
        self.assertEqual(c["minimal"]["cut_short"], "tries")
        self.assertEqual(c["minimal"]["tries"], 3)
        self.assertIn("shrinking cut short by --shrink-budget after 3 tries", proc.stdout)
        proc, out = run(["--backend-cmd", self.CRASH, "--cases", "random", "--op",
                         "openvino.Divide-1", "--dtype", "i64", "--count", "8",
                         "--shrink-seconds", "0"])
        [c] = [c for c in results(out) if c["case"] == self.CRASH_CASE]
        self.assertNotIn("minimal", c)
        self.assertIn("not shrunk: shrinking cut short by --shrink-seconds after 0 tries",
                      c["message"])

    def test_list_cases_does_not_start_the_backend(self):
        proc, _ = run(["--backend-cmd", "/bin/false", "--cases", "spec", "--op", "onnx.Mul-14",
                       "--graph-forms", "runtime,const-b", "--list-cases"])
        self.assert_exit(proc, 0)
        ids = proc.stdout.split()
        self.assertTrue([i for i in ids if i.startswith("spec:")], proc.stdout)
        self.assertEqual(len([i for i in ids if i.startswith("const-b/")]) * 2, len(ids))

    def test_failed_rerun_of_undefined_elements_names_its_own_failure(self):
        cmd = "%s %s/planted_bug_backend.py --bug fails-integer-division" % (PYTHON, PY_BACKENDS)
        proc, out = run(["--backend-cmd", cmd, "--case", "exhaustive8:onnx.Div-14:u8:b=0x00"])
        self.assert_exit(proc, 1)
        [c] = results(out)
        self.assertEqual(c["status"], "ERROR")
        self.assertEqual(c["undefined_refused"], 256)
        self.assertTrue(c["message"].startswith(
            "the call has 256 undefined elements (integer division by zero) and the backend "
            "failed it: RuntimeError: compile error: no kernel for integer division"),
            c["message"])
        self.assertIn(" | the re-run with every zero divisor made 1 ended ERROR too, so the "
                      "undefined elements are not the cause: RuntimeError: compile error",
                      c["message"])


class Results(Harness):
    def test_killed_run_leaves_complete_lines(self):
        """Done-when 4: SIGKILL half way leaves only complete JSON lines."""
        out = tempfile.mkdtemp(prefix="eltwise-kill-")
        cmd = EXAMPLE
        proc = subprocess.Popen([VALIDATE, "run", "--out", out, "--backend-cmd", cmd,
                                 "--cases", "random", "--count", "20"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        path = os.path.join(out, "results.jsonl")
        deadline = time.time() + 60
        while time.time() < deadline:
            if os.path.exists(path) and sum(1 for _ in open(path)) > 50:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with open(path) as f:
            text = f.read()
        self.assertTrue(text.endswith("\n"))
        lines = text.splitlines()
        self.assertGreater(len(lines), 50)
        for line in lines:
            json.loads(line)  # raises on a torn line

    def test_expectations_baseline(self):
        cmd = "%s %s --bug saturate-u8" % (HOST, PLANTED_PLUGIN)
        base = ["--backend-cmd", cmd, "--cases", "exhaustive8,spec", "--op", "onnx.Mul-14"]
        baseline = os.path.join(tempfile.mkdtemp(), "expected.txt")
        proc, out = run(base + ["--write-expected", baseline])
        self.assert_exit(proc, 1)
        with open(baseline) as f:
            text = f.read()
        self.assertIn("exhaustive8:onnx.Mul-14:u8 FAILED", text)
        proc, out = run(base + ["--expected", baseline])
        self.assert_exit(proc, 0)
        # a correct backend now passes what the baseline expected to fail: listed, exit 0
        proc, out = run(["--backend", "optimized", "--cases", "exhaustive8,spec", "--op",
                         "onnx.Mul-14", "--expected", baseline])
        self.assert_exit(proc, 0)
        self.assertIn("now passes: exhaustive8:onnx.Mul-14:u8", proc.stdout)
        # `FAILED?` (depends on the machine): the deviation is expected, passing is no news
        with open(baseline, "w") as f:
            f.write("exhaustive8:onnx.Mul-14:u8 FAILED?\n")
        proc, out = run(base + ["--expected", baseline])
        self.assert_exit(proc, 0)
        proc, out = run(["--backend", "optimized", "--cases", "exhaustive8,spec", "--op",
                         "onnx.Mul-14", "--expected", baseline])
        self.assert_exit(proc, 0)
        self.assertNotIn("now passes", proc.stdout)
        # a deviation that the baseline does not list fails the run
        with open(baseline, "w") as f:
            f.write("# empty baseline\n")
        proc, out = run(base + ["--expected", baseline])
        self.assert_exit(proc, 1)

    def test_list_backend_claims(self):
        proc = subprocess.run([VALIDATE, "list", "--backend-cmd",
                               EXAMPLE],
                              capture_output=True, text=True, timeout=60)
        self.assert_exit(proc, 0)
        # numpy has no bfloat16: the spec allows it for Mul-13, the backend does not claim it
        self.assertIn("-bf16", proc.stdout)
        self.assertIn("spec allows", proc.stdout)

    def test_usage_errors(self):
        for args in (["--backend", "nonesuch"], ["--backend", "optimized", "--cases", "bogus"],
                     ["--backend", "optimized", "--op", "onnx.Mul-99"],
                     ["--backend", "optimized", "--case", "random:onnx.Mul-99:f32:numpy:seed=1:n=0"]):
            proc, out = run(args)
            self.assert_exit(proc, 2)

    def test_bad_option_values_are_named_before_the_backend_starts(self):
        """One bad value per kind of run option: exit 2, a message naming the option, and
        nothing written. The backend is /bin/false: an option read only after it started would
        end the run PROTOCOL_ERROR (exit 1, a results file) instead."""
        for args, named in ((["--graph-forms", "runtime,const-z"],
                             "--graph-forms: unknown form 'const-z'"),
                            (["--op", "onnx.Mul-99"], "--op: unknown 'onnx.Mul-99'"),
                            (["--dtype", "f33"], "--dtype: unknown 'f33'"),
                            (["--cases", "spec,specs"], "--cases: unknown 'specs'"),
                            (["--source", "random,randoms"], "--source: unknown 'randoms'"),
                            (["--shard", "4/3"], "--shard '4/3'"),
                            (["--shard", "two"], "--shard 'two'"),
                            (["--platform", "riscv"], "unknown platform 'riscv'"),
                            (["--platform", "arm64"], "runs adapters by name"),
                            (["--nan", "maybe"], "--nan"),
                            (["--ulp", "-1"], "--ulp"),
                            (["--undefined-refusal", "sometimes"], "--undefined-refusal"),
                            (["--timeout", "0"], "--timeout"),
                            (["--count", "-1"], "--count")):
            proc, out = run(["--backend-cmd", "/bin/false"] + args)
            self.assert_exit(proc, 2)
            self.assertIn(named, proc.stderr, args)
            self.assertEqual(os.listdir(out), [], args)



class CompilingBackends(Harness):
    """PROTOCOL.md section 9, item 19: a compiling backend's announced latency lengthens every
    case's timeout, and the compilations its answers report reach the case lines and the summary.
    The test backend compiles (sleeps 1.5 s) once per (op version, types, ranks)."""

    def compiling_run(self, latency):
        command = "%s %s/compiling_backend.py --latency %s --compile-seconds 1.5" % (
            PYTHON, PY_BACKENDS, latency)
        return run(["--backend-cmd", command, "--cases", "spec", "--op", "onnx.Mul-14",
                    "--dtype", "f32", "--timeout", "1"])

    def test_latency_lengthens_the_timeout_and_compilations_are_counted(self):
        proc, out = self.compiling_run(3)
        self.assert_exit(proc, 0)
        cases = results(out)
        self.assert_all_pass(cases)
        keys = {(c["dtype"], c.get("dtype_b"), len(c["shapes"][0]), len(c["shapes"][1]))
                for c in cases if c.get("shapes")}
        compiled = sum(c.get("compilations", 0) for c in cases)
        self.assertEqual(compiled, len(keys))  # one per (types, ranks): the op is fixed
        self.assertIn("; %d compilations" % compiled, proc.stdout)
        self.assertRegex(proc.stdout, r"\d+ cases run in [0-9.]+ s: [0-9.]+ cases/s")
        with open(os.path.join(out, "results.jsonl")) as f:
            hello = json.loads(f.readline())["run"]["backend"]
        self.assertEqual(hello["compile"], {"compiler": "sleep", "target": "numpy",
                                            "shapes": "dynamic", "latency_seconds": 3})

    def test_without_latency_a_compiling_case_hangs(self):
        proc, out = self.compiling_run(0)
        self.assert_exit(proc, 1)
        self.assertIn("HUNG", statuses(results(out)))


class OpenMpWaitPolicy(Harness):
    """The validator's OpenMP threads sleep while idle unless the user chose a policy: libgomp's
    spinning took the cores a backend's process needed (runner/openmp_wait_policy.hpp)."""

    def spin_count(self, policy):
        env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
        env["OMP_DISPLAY_ENV"] = "verbose"
        if policy is not None:
            env["OMP_WAIT_POLICY"] = policy
        proc = subprocess.run([VALIDATE, "list"], capture_output=True, text=True, env=env,
                              timeout=60)
        self.assert_exit(proc, 0)
        # libgomp prints its settings when it starts, in every process image it starts in.
        counts = [line.split("=")[1].strip().strip("'") for line in proc.stderr.splitlines()
                  if line.strip().startswith("GOMP_SPINCOUNT")]
        self.assertNotEqual(counts, [], proc.stderr[-2000:])
        return counts[-1]

    def test_idle_threads_sleep_unless_the_user_chose(self):
        self.assertEqual(self.spin_count(None), "0")
        self.assertEqual(self.spin_count(""), "0")  # libgomp takes an empty value as none
        self.assertEqual(self.spin_count("passive"), "0")
        self.assertNotEqual(self.spin_count("active"), "0")

if __name__ == "__main__":
    unittest.main()
