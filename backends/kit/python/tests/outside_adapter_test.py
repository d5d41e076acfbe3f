#!/usr/bin/python3
"""An adapter outside the repository, on the kit installed with pip: a temporary virtual
environment on Debian's python3 (--system-site-packages, for Debian's numpy, setuptools and
wheel: no download), `pip install --no-index --no-build-isolation` of a copy of
backends/kit/python (op_table.json, a symlink there, copied as a file), the
adapter file copied to a temporary folder, and PYTHONPATH cleared so that only the installed kit
can be imported. The validator then runs it and it passes what the numpy example claims.

    ELTWISE_VALIDATE=build/release/bin/eltwise-validate outside_adapter_test.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.dirname(HERE)
VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def check_run(command, **kwargs):
    proc = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=600,
                          **kwargs)
    if proc.returncode != 0:
        raise AssertionError(f"{command}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n"
                             f"{proc.stderr[-2000:]}")
    return proc



class Harness(unittest.TestCase):
    """The base of the test classes (cmake/PythonTests.cmake finds them by it)."""

class OutsideAdapter(Harness):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="eltwise-outside-")
        venv = os.path.join(cls.folder, "venv")
        check_run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv])
        cls.python = os.path.join(venv, "bin", "python")
        # a copy: pip builds in the folder it is given, and the checkout stays as it was
        source = shutil.copytree(KIT, os.path.join(cls.folder, "kit"),
                                 ignore=shutil.ignore_patterns("tests", "__pycache__"))
        check_run([cls.python, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                   "--no-build-isolation", source], cwd=cls.folder)
        cls.adapter = os.path.join(cls.folder, "my_adapter.py")
        shutil.copy(os.path.join(HERE, "outside_adapter.py"), cls.adapter)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_the_kit_comes_from_the_installed_package(self):
        proc = check_run([self.python, "-c", "import eltwise_adapter_kit as k, json; "
                          "print(json.dumps([k.__file__, len(k.OPS)]))"], cwd=self.folder)
        path, ops = json.loads(proc.stdout)
        self.assertTrue(path.startswith(os.path.join(self.folder, "venv")), path)
        self.assertEqual(ops, 12)  # op_table.json went into the package with it

    def test_it_passes_the_numpy_example_claims(self):
        out = os.path.join(self.folder, "run")
        command = f"{self.python} {self.adapter}"
        proc = check_run([VALIDATE, "run", "--backend-cmd", command, "--out", out,
                          "--cases", "spec,edge,random,invalid", "--count", "2"])
        with open(os.path.join(out, "results.jsonl")) as f:
            lines = [json.loads(line) for line in f]
        counts = {}
        for line in lines[1:]:
            counts[line["status"]] = counts.get(line["status"], 0) + 1
        self.assertGreater(counts.get("PASSED", 0), 1000, proc.stdout)
        self.assertEqual(set(counts) - {"PASSED", "UNSUPPORTED", "SKIPPED"}, set(), counts)
        example = check_run([VALIDATE, "list", "--backend-cmd", f"{self.python} -m "
                             "eltwise_adapter_kit.example"]).stdout
        mine = check_run([VALIDATE, "list", "--backend-cmd", command]).stdout
        self.assertEqual(mine.replace("outside-numpy", "numpy"), example)


if __name__ == "__main__":
    unittest.main()
