"""The reports as their real consumers see them.

`--setup` runs three backends (the built-in optimized one and two planted-bug backends: a C++
plugin that saturates u8 products, a Python one that floors where the spec truncates) and merges
their results with `eltwise-validate report`. The tests then read the JUnit files with xmllint
and xunit-viewer's parser, and open the HTML report in headless Chromium. Every expected count
is computed here from results.jsonl, the source of truth, never from the reports themselves.
Paths come from the environment (set by CMake).
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
HOST = os.environ.get("ELTWISE_HOST", "eltwise-backend-host")
PLANTED_PLUGIN = os.environ.get("ELTWISE_PLANTED_PLUGIN", "")
PY_BACKENDS = os.environ.get("ELTWISE_PY_BACKENDS", "")
RUNS = os.environ.get("ELTWISE_REPORT_RUNS", "/tmp/eltwise-report-runs")
SCREENSHOTS = os.environ.get("ELTWISE_SCREENSHOTS", os.path.join(RUNS, "screenshots"))
HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"
CASES = ["--cases", "spec,edge,random,invalid,exhaustive8", "--count", "3"]

BACKENDS = {  # run directory -> backend arguments
    "optimized": ["--backend", "optimized"],
    "planted_u8": ["--backend-cmd", "%s %s --bug saturate-u8" % (HOST, PLANTED_PLUGIN)],
    # The same planted bug, judged with a profile that declares it for onnx.Mul-14 and a baseline
    # that accepts its random openvino.Multiply-1 cases: the three kinds of deviation (issue 44).
    "planted_u8_known": ["--backend-cmd", "%s %s --bug saturate-u8" % (HOST, PLANTED_PLUGIN),
                         "--label", "planted-u8, profile and baseline",
                         "--profile", os.path.join(RUNS, "u8-profile.toml"),
                         "--expected", os.path.join(RUNS, "u8-expected.txt")],
    "planted_floor": ["--backend-cmd",
                      "%s %s/planted_bug_backend.py --bug floor-for-trunc" % (PYTHON, PY_BACKENDS),
                      "--label", "numpy, planted floor-for-trunc"],
}

FAILURE = {"FAILED", "ACCEPTED_INVALID", "REJECTED_VALID"}
ERROR = {"CRASHED", "HUNG", "PROTOCOL_ERROR", "ERROR"}
NOT_JUDGED = {"UNSUPPORTED", "SKIPPED"}


def validate(args, timeout=600):
    return subprocess.run([VALIDATE] + args, capture_output=True, text=True, timeout=timeout)


def spec_op_versions():
    """The ids of the op versions the specs define: the op-version table's (`list --json`)."""
    proc = validate(["list", "--json"], timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [op["id"] for op in json.loads(proc.stdout)]


def results(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    assert "run" in lines[0], lines[0]
    return lines[1:]


def run_file(name):
    return os.path.join(RUNS, name, "results.jsonl")


def setup():
    """Makes the three runs and the merged report; the fixture every test requires."""
    shutil.rmtree(RUNS, ignore_errors=True)
    os.makedirs(RUNS)
    with open(os.path.join(RUNS, "u8-profile.toml"), "w") as f:
        f.write('[[declare]]\nname = "u8-products-saturate"\nfinding = "docs/findings/README.md"\n'
                'behaviours = ["integer_results_saturated"]\nops = ["onnx.Mul-14"]\n'
                'dtypes = ["u8"]\n')
    with open(os.path.join(RUNS, "u8-expected.txt"), "w") as f:
        f.write("random:openvino.Multiply-1:u8:*  FAILED\n")
    for name, backend in BACKENDS.items():
        proc = validate(["run", "--out", os.path.join(RUNS, name)] + backend + CASES)
        if proc.returncode not in (0, 1) or not os.path.exists(run_file(name)):
            sys.exit("run %s: exit %d\n%s" % (name, proc.returncode, proc.stderr[-3000:]))
    merged = os.path.join(RUNS, "merged")
    os.makedirs(merged)
    proc = validate(["report"] + [run_file(n) for n in BACKENDS] +
                    ["--html", os.path.join(merged, "report.html"),
                     "--junit", os.path.join(merged, "junit.xml"),
                     "--summary", os.path.join(merged, "summary.json")])
    if proc.returncode != 0:
        sys.exit("report: exit %d\n%s" % (proc.returncode, proc.stderr[-3000:]))


def node(script, *args, timeout=120):
    if not os.path.isdir(os.path.join(HERE, "node_modules")):
        raise AssertionError("reports/tests/node_modules is missing: run scripts/install_dependencies.sh")
    proc = subprocess.run(["node", os.path.join(HERE, script)] + list(args),
                          capture_output=True, text=True, timeout=timeout, cwd=HERE)
    if proc.returncode != 0:
        raise AssertionError("%s: exit %d\n%s" % (script, proc.returncode, proc.stderr[-3000:]))
    return json.loads(proc.stdout)


def status_counts(cases):
    counts = {}
    for c in cases:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    return counts


def kind_of(case):
    """new, declared or accepted for a deviation (from its status and "baseline"), else None."""
    if case["status"] == "DEVIATES_AS_DECLARED":
        return "declared"
    if case["status"] in FAILURE | ERROR:
        return "accepted" if case.get("baseline") == "accepted" else "new"
    return None


def cell_counts(cases):
    cells = {}
    for c in cases:
        cell = cells.setdefault(c["op"], {}).setdefault(c["dtype"], {})
        cell[c["status"]] = cell.get(c["status"], 0) + 1
    return cells


def labels_by_file():
    with open(os.path.join(RUNS, "merged", "summary.json")) as f:
        summary = json.load(f)
    return {run["file"]: b["label"] for b in summary["backends"] for run in b["runs"]}


def disagreements():
    """Cases that two or more backends judged (not UNSUPPORTED/SKIPPED) with different statuses."""
    verdicts = {}
    for name in BACKENDS:
        for c in results(run_file(name)):
            if c["status"] not in NOT_JUDGED:
                verdicts.setdefault(c["case"], set()).add((name, c["status"]))
    return [case for case, v in verdicts.items()
            if len(v) > 1 and len({status for _, status in v}) > 1]


class Harness(unittest.TestCase):
    def assert_exit(self, proc, code):
        self.assertEqual(proc.returncode, code, "exit %d\nstdout:\n%s\nstderr:\n%s" % (
            proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))


class Junit(Harness):
    """The JUnit files: well formed, and a real consumer counts what results.jsonl holds."""

    def junit_files(self):
        return [os.path.join(RUNS, n, "junit.xml") for n in BACKENDS] + \
               [os.path.join(RUNS, "merged", "junit.xml")]

    def test_xmllint_accepts_every_file(self):
        for path in self.junit_files():
            proc = subprocess.run(["xmllint", "--noout", path], capture_output=True, text=True)
            self.assert_exit(proc, 0)

    def check_suite(self, suite, cases):
        # Only new deviations fail; one the baseline accepts is skipped (issue 44).
        accepted = [c for c in cases if kind_of(c) == "accepted"]
        counts = status_counts([c for c in cases if kind_of(c) != "accepted"])
        seen = suite["counts"]
        self.assertEqual(seen.get("failure", 0), sum(counts.get(s, 0) for s in FAILURE))
        self.assertEqual(seen.get("error", 0), sum(counts.get(s, 0) for s in ERROR))
        self.assertEqual(seen.get("skipped", 0),
                         sum(counts.get(s, 0) for s in NOT_JUDGED) + len(accepted))
        # Passing exhaustive cases are folded, one testcase per (op version, type, source),
        # whose name starts with the number of cases it stands for.
        folded = [int(f["name"].split(": ")[1].split(" ")[0]) for f in suite["folded"]]
        passing = ("PASSED", "DEVIATES_AS_DECLARED", "REFUSED_UNDEFINED")
        exhaustive_passes = sum(1 for c in cases
                                if c["status"] in passing and c["source"].startswith("exhaustive"))
        self.assertEqual(sum(folded), exhaustive_passes)
        self.assertEqual(seen.get("passed", 0) - len(folded) + sum(folded),
                         sum(counts.get(s, 0) for s in passing))
        self.assertGreater(seen.get("failure", 0) + seen.get("passed", 0), 0)

    def test_consumer_counts_equal_results(self):
        for name in BACKENDS:
            parsed = node("junit_consumer.mjs", os.path.join(RUNS, name, "junit.xml"))
            [suite] = parsed["suites"].values()
            with self.subTest(run=name):
                self.check_suite(suite, results(run_file(name)))
                self.assertEqual(suite["properties"]["seed"], ["1"])

    def test_merged_file_has_a_suite_per_backend(self):
        parsed = node("junit_consumer.mjs", os.path.join(RUNS, "merged", "junit.xml"))
        labels = labels_by_file()
        self.assertEqual(len(parsed["suites"]), len(BACKENDS))
        for name in BACKENDS:
            with self.subTest(run=name):
                self.check_suite(parsed["suites"][labels[run_file(name)]], results(run_file(name)))

    def test_planted_bugs_are_failures_with_their_category(self):
        parsed = node("junit_consumer.mjs", os.path.join(RUNS, "planted_u8", "junit.xml"))
        [suite] = parsed["suites"].values()
        self.assertGreater(suite["counts"].get("failure", 0), 0)


class Browser(Harness):
    """The merged HTML report in headless Chromium, driven by puppeteer-core."""

    @classmethod
    def setUpClass(cls):
        cls.seen = node("browser_check.mjs", os.path.join(RUNS, "merged", "report.html"),
                        SCREENSHOTS)

    def test_matrix_rows_are_the_spec_op_versions(self):
        versions = spec_op_versions()
        for backend in self.seen["backends"]:
            self.assertEqual(len(backend["rows"]), len(versions))
            self.assertEqual(set(backend["rows"]), set(versions))

    def test_cell_counts_equal_results(self):
        labels = labels_by_file()
        by_label = {b["label"]: b for b in self.seen["backends"]}
        self.assertEqual(len(by_label), len(BACKENDS))
        for name in BACKENDS:
            expected = cell_counts(results(run_file(name)))
            shown = by_label[labels[run_file(name)]]["cells"]
            for op in spec_op_versions():
                for dtype in shown[op]:
                    with self.subTest(run=name, op=op, dtype=dtype):
                        self.assertEqual(shown[op][dtype]["counts"],
                                         expected.get(op, {}).get(dtype, {}))

    def test_clicking_a_failing_cell_shows_its_failures_and_replay_lines(self):
        clicked = self.seen["clicked"]
        self.assertTrue(clicked["failures"], clicked)
        file = [f for f, label in labels_by_file().items() if label == clicked["backend"]][0]
        lines = {c["case"]: c for c in results(file)}
        for failure in clicked["failures"]:
            line = lines[failure["case"]]
            self.assertEqual((line["op"], line["dtype"]), (clicked["op"], clicked["dtype"]))
            self.assertNotIn(line["status"], NOT_JUDGED | {"PASSED"})
            self.assertEqual(failure["replay"], line["replay"])
        self.assertGreaterEqual(self.seen["search"]["visible"], 1)

    def test_scoreboard_lists_each_backend_and_the_disagreements(self):
        self.assertEqual(sorted(self.seen["scoreboard_labels"]), sorted(labels_by_file().values()))
        self.assertIn("numpy, planted floor-for-trunc", self.seen["scoreboard_labels"])  # --label
        expected = disagreements()
        self.assertGreater(len(expected), 0)  # the planted bugs disagree with optimized
        self.assertEqual(self.seen["disagreement_rows"], min(len(expected), 1000))

    def test_the_failures_filter_by_each_kind_of_deviation(self):
        labels = labels_by_file()
        for name in BACKENDS:
            cases = results(run_file(name))
            shown = self.seen["kinds"][labels[run_file(name)]]
            for kind in ("new", "declared", "accepted"):
                with self.subTest(run=name, kind=kind):
                    total = sum(1 for c in cases if kind_of(c) == kind)
                    self.assertEqual(shown[kind]["total"], total)
                    self.assertLessEqual(shown[kind]["matching"], total)
                    self.assertEqual(shown[kind]["matching"] > 0, total > 0)
                    self.assertEqual(shown[kind]["shown"], [kind] if total else [])
        known = self.seen["kinds"][labels[run_file("planted_u8_known")]]
        for kind in ("new", "declared", "accepted"):  # the run shows all three
            self.assertGreater(known[kind]["total"], 0, kind)

    def test_no_network_request_and_no_script_error(self):
        self.assertEqual(self.seen["requests"], [])
        self.assertEqual(self.seen["console_errors"], [])

    def test_screenshots_of_each_view(self):
        self.assertEqual(len(self.seen["screenshots"]), 3)
        for path in self.seen["screenshots"]:
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
            self.assertGreater(os.path.getsize(path), 10000, path)


class Large(Harness):
    """A run of a million cases (the planted-u8 run's lines repeated with their own ids) gives a
    report.html of at most 5 MB and a junit.xml under GitLab's 30 MB, both still readable."""

    def test_million_cases_stay_under_the_size_limits(self):
        out = tempfile.mkdtemp(prefix="eltwise-report-large-")
        big = os.path.join(out, "results.jsonl")
        subprocess.run([PYTHON, os.path.join(HERE, "large_results.py"), run_file("planted_u8"),
                        "1000000", big], check=True, timeout=600)
        html, junit = os.path.join(out, "report.html"), os.path.join(out, "junit.xml")
        start = time.monotonic()
        proc = validate(["report", big, "--html", html, "--junit", junit], timeout=1800)
        seconds = time.monotonic() - start
        self.assert_exit(proc, 0)
        print("report of 10^6 cases: %.1f s, report.html %d bytes, junit.xml %d bytes"
              % (seconds, os.path.getsize(html), os.path.getsize(junit)))
        self.assertLessEqual(os.path.getsize(html), 5 << 20)
        self.assertLessEqual(os.path.getsize(junit), 30 << 20)
        self.assert_exit(subprocess.run(["xmllint", "--noout", "--huge", junit],
                                        capture_output=True, text=True), 0)
        cases = results(big)
        [suite] = node("junit_consumer.mjs", junit, timeout=600)["suites"].values()
        counts = status_counts(cases)
        self.assertEqual(suite["counts"].get("failure", 0), sum(counts.get(s, 0) for s in FAILURE))
        shutil.rmtree(out)


class ReportCommand(Harness):
    """`report` as a command: merging shards, and bad input."""

    def test_shards_of_one_backend_merge_into_one(self):
        out = tempfile.mkdtemp(prefix="eltwise-report-test-")
        for part in ("spec", "edge"):
            self.assert_exit(validate(["run", "--backend", "optimized", "--cases", part,
                                       "--out", os.path.join(out, part)]), 0)
        summary = os.path.join(out, "summary.json")
        proc = validate(["report", os.path.join(out, "spec", "results.jsonl"),
                         os.path.join(out, "edge", "results.jsonl"), "--summary", summary])
        self.assert_exit(proc, 0)
        with open(summary) as f:
            [backend] = json.load(f)["backends"]
        both = results(os.path.join(out, "spec", "results.jsonl")) + \
            results(os.path.join(out, "edge", "results.jsonl"))
        self.assertEqual(backend["cases"], len(both))
        self.assertEqual(backend["totals"], status_counts(both))

    def test_a_malformed_file_is_named_and_nothing_is_overwritten(self):
        out = tempfile.mkdtemp(prefix="eltwise-report-test-")
        bad = os.path.join(out, "bad.jsonl")
        with open(run_file("optimized")) as src, open(bad, "w") as dst:
            dst.write(src.readline() + src.readline() + '{"case": "cut sho\n')
        html = os.path.join(out, "report.html")
        with open(html, "w") as f:
            f.write("keep me")
        proc = validate(["report", bad, "--html", html])
        self.assert_exit(proc, 2)
        self.assertIn("bad.jsonl:3", proc.stderr)
        with open(html) as f:
            self.assertEqual(f.read(), "keep me")
        self.assert_exit(validate(["report", os.path.join(out, "missing.jsonl")]), 2)
        copy = os.path.join(out, "results.jsonl")
        shutil.copy(run_file("optimized"), copy)
        proc = validate(["report", copy, "--junit", copy])
        self.assert_exit(proc, 2)
        self.assertIn("over the results file", proc.stderr)
        self.assertTrue(filecmp.cmp(copy, run_file("optimized"), shallow=False))

    def test_run_writes_and_names_its_reports(self):
        out = tempfile.mkdtemp(prefix="eltwise-report-test-")
        proc = validate(["run", "--backend", "reference", "--cases", "spec", "--out", out])
        self.assert_exit(proc, 0)
        for name in ("junit.xml", "report.html"):
            self.assertIn(os.path.join(out, name), proc.stdout)
            self.assertTrue(os.path.getsize(os.path.join(out, name)) > 0)


if __name__ == "__main__":
    if sys.argv[1:] == ["--setup"]:
        setup()
    else:
        unittest.main()
