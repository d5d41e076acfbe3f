"""End-to-end tests of `eltwise-validate run --resume DIR`.

A run killed with SIGKILL (twice) and resumed must end with the results of an uninterrupted run
of the same options: the same (case, status) pairs, each case once, and the same report totals.
The reference is a second, uninterrupted run of the validator, not anything --resume computes.
Paths come from the environment (set by CMake).
"""
import hashlib
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

import run_command_test
from run_command_test import HOST, PLANTED_PLUGIN, VALIDATE

# Non-default seed, count, filter and label: a resumed run that fell back to the defaults would
# plan other cases.
OPTIONS = ["--cases", "edge,random,invalid", "--count", "1", "--dtype", "u8,i16,f32,i32", "--seed",
           "5", "--label", "planted-u8"]


def backend_command():
    return "%s %s --bug saturate-u8" % (HOST, PLANTED_PLUGIN)


def validate(args, timeout=600):
    return subprocess.run([VALIDATE] + args, capture_output=True, text=True, timeout=timeout)


def results_path(out):
    return os.path.join(out, "results.jsonl")


def case_lines(out):
    with open(results_path(out)) as f:
        lines = [json.loads(line) for line in f]
    assert "run" in lines[0], lines[0]
    return lines[1:]


def line_count(path):
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def summary(out):
    path = os.path.join(tempfile.mkdtemp(prefix="eltwise-resume-summary-"), "summary.json")
    proc = validate(["report", results_path(out), "--summary", path])
    assert proc.returncode == 0, proc.stderr
    with open(path) as f:
        [backend] = json.load(f)["backends"]
    return backend


def kill_when(proc, path, lines):
    """SIGKILLs the run once its results file has `lines` lines; False if it ended first."""
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if line_count(path) >= lines:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.005)
    proc.wait()
    return False


class Harness(run_command_test.Harness):
    def finished_run(self):
        out = tempfile.mkdtemp(prefix="eltwise-resume-a-")
        proc = validate(["run", "--out", out, "--backend-cmd", backend_command()] + OPTIONS)
        self.assert_exit(proc, 1)  # the planted bug: u8 products clamp instead of wrapping
        return out

    def killed_run(self, lines):
        out = tempfile.mkdtemp(prefix="eltwise-resume-b-")
        proc = subprocess.Popen([VALIDATE, "run", "--out", out, "--backend-cmd",
                                 backend_command()] + OPTIONS,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.assertTrue(kill_when(proc, results_path(out), lines), "the run ended too soon")
        return out


class Resume(Harness):
    def test_killed_twice_resumed_equals_uninterrupted(self):
        a = self.finished_run()
        a_cases = case_lines(a)
        total = len(a_cases)
        self.assertGreater(total, 100)
        self.assertIn("FAILED", {c["status"] for c in a_cases})

        b = self.killed_run(1 + total // 4)
        first = len(case_lines(b))
        self.assertLess(first, total)
        # killed a second time, half way through what is left (the first kill may overshoot
        # its mark on a loaded machine: the mark is counted from where the first run stopped)
        proc = subprocess.Popen([VALIDATE, "run", "--resume", b], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self.assertTrue(kill_when(proc, results_path(b), 1 + first + max(1, (total - first) // 2)),
                        "the resumed run ended too soon")
        second = len(case_lines(b))
        self.assertGreater(second, first)
        self.assertLess(second, total)

        proc = validate(["run", "--resume", b])
        self.assert_exit(proc, 1)
        self.assertIn("%d of %d cases done, %d to run" % (second, total, total - second),
                      proc.stdout)
        b_cases = case_lines(b)
        ids = [c["case"] for c in b_cases]
        self.assertEqual(len(ids), len(set(ids)), "a case id is repeated")
        self.assertEqual({(c["case"], c["status"]) for c in b_cases},
                         {(c["case"], c["status"]) for c in a_cases})
        sa, sb = summary(a), summary(b)
        for key in ("label", "cases", "totals", "cells", "categories"):
            self.assertEqual(sa[key], sb[key], key)
        # the final stdout is an uninterrupted run's: the table and the finding count
        self.assertIn("%d cases; %d findings" % (total, sa["failures_total"]), proc.stdout)

    def test_cut_last_line_dropped(self):
        b = self.killed_run(20)
        path = results_path(b)
        with open(path, "rb") as f:
            complete = f.read()
        with open(path, "ab") as f:  # a line torn by the kill: no newline, not JSON
            f.write(complete.splitlines(True)[-1][:25])
        proc = validate(["run", "--resume", b])
        self.assert_exit(proc, 1)
        self.assertIn("dropped the last line", proc.stdout)
        with open(path, "rb") as f:
            self.assertTrue(f.read().startswith(complete), "a complete line was lost")
        lines = case_lines(b)  # raises on a torn line
        self.assertEqual(len(lines), len({c["case"] for c in lines}))

    def test_finished_run_only_rewrites_reports(self):
        a = self.finished_run()
        before = digest(results_path(a))
        total = len(case_lines(a))
        os.remove(os.path.join(a, "junit.xml"))
        # --timeout and --shrink-budget may be given
        proc = validate(["run", "--resume", a, "--timeout", "5", "--shrink-budget", "10"])
        self.assert_exit(proc, 1)
        self.assertIn("%d of %d cases done, 0 to run" % (total, total), proc.stdout)
        self.assertIn("nothing to run", proc.stdout)
        self.assertEqual(digest(results_path(a)), before)
        self.assertTrue(os.path.exists(os.path.join(a, "junit.xml")))

    def test_usage_errors_change_nothing(self):
        b = self.killed_run(20)
        path = results_path(b)
        with open(path, "ab") as f:
            f.write(b'{"case": "cut')
        before = digest(path)
        for extra in (["--backend", "optimized"], ["--seed", "5"], ["--cases", "spec"]):
            proc = validate(["run", "--resume", b] + extra)
            self.assert_exit(proc, 2)
            self.assertIn(extra[0], proc.stderr)
            self.assertEqual(digest(path), before)
        missing = os.path.join(tempfile.mkdtemp(), "nonesuch")
        proc = validate(["run", "--resume", missing])
        self.assert_exit(proc, 2)
        self.assertIn("no results.jsonl", proc.stderr)
        self.assertFalse(os.path.exists(missing))
        # a malformed line that is not the last one
        with open(path, "rb") as f:
            lines = f.read().splitlines(True)
        lines[3] = b"not json\n"
        with open(path, "wb") as f:
            f.writelines(lines)
        before = digest(path)
        proc = validate(["run", "--resume", b])
        self.assert_exit(proc, 2)
        self.assertIn("results.jsonl:4:", proc.stderr)
        self.assertEqual(digest(path), before)
        # a foreign first line
        foreign = tempfile.mkdtemp()
        with open(results_path(foreign), "w") as f:
            f.write('{"something": "else"}\n')
        proc = validate(["run", "--resume", foreign])
        self.assert_exit(proc, 2)
        self.assertIn("not a run line", proc.stderr)
        self.assertEqual(os.listdir(foreign), ["results.jsonl"])

    def test_bad_recorded_option_is_named(self):
        """The recorded options are parsed by the same one function as the command line's: a
        bad value in the run line (a file, so the command line's checks never saw it) is a usage
        error naming the option, and nothing runs."""
        out = tempfile.mkdtemp(prefix="eltwise-resume-bad-")
        proc = validate(["run", "--out", out, "--backend", "optimized", "--cases", "spec",
                         "--op", "onnx.Mul-14"])
        self.assert_exit(proc, 0)
        with open(results_path(out)) as f:
            lines = f.read().splitlines(True)
        for key, value, named in (("undefined_refusal", "sometimes", "--undefined-refusal"),
                                  ("nan", "maybe", "--nan"), ("shard", "4/3", "--shard"),
                                  ("graph_forms", ["runtime", "const-z"], "--graph-forms"),
                                  ("platform", "riscv", "unknown platform 'riscv'")):
            run = json.loads(lines[0])
            run["run"]["options"][key] = value
            with open(results_path(out), "w") as f:
                f.writelines([json.dumps(run) + "\n"] + lines[1:])
            before = digest(results_path(out))
            proc = validate(["run", "--resume", out])
            self.assert_exit(proc, 2)
            self.assertIn(named, proc.stderr)
            self.assertEqual(digest(results_path(out)), before)


if __name__ == "__main__":
    unittest.main()
