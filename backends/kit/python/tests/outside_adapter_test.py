#!/usr/bin/python3
"""An adapter outside the repository, on the kit installed with pip: a temporary virtual
environment on Debian's python3 (--system-site-packages, for Debian's numpy), `pip install
--no-index` of a plain copy of backends/kit/python (symlinks kept, build isolation on: the kit's
build backend needs nothing to be downloaded), the adapter file copied to a temporary folder, and
PYTHONPATH cleared so that only the installed kit can be imported. The validator then runs it
and it passes what the numpy example claims.

Install: installing leaves the kit's folder as it was (file list and contents compared: CI runs
as root, so a read-only folder would prove nothing), a plain copy installs with its op table,
and a kit without its table fails to build instead of failing at import.

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
    kwargs.setdefault("env", ENV)
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    if proc.returncode != 0:
        raise AssertionError(f"{command}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n"
                             f"{proc.stderr[-2000:]}")
    return proc


def make_venv(folder):
    venv = os.path.join(folder, "venv")
    check_run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv])
    return os.path.join(venv, "bin", "python")


def copy_kit(folder):
    """A plain copy of the kit, as `cp -r` makes it: symlinks stay symlinks."""
    return shutil.copytree(KIT, os.path.join(folder, "kit"), symlinks=True,
                           ignore=shutil.ignore_patterns("__pycache__"))


def pip_install(python, source, *args):
    return subprocess.run([python, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                           *args, source], capture_output=True, text=True, env=ENV, timeout=600)


def tree(folder):
    """Every path under `folder` (directories too) -> its bytes, or its target for a symlink."""
    found = {}
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            key = os.path.relpath(path, folder)
            if os.path.islink(path):
                found[key] = "-> " + os.readlink(path)
            elif os.path.isdir(path):
                found[key] = "dir"
            else:
                with open(path, "rb") as f:
                    found[key] = f.read()
    return found



class Harness(unittest.TestCase):
    """The base of the test classes (cmake/PythonTests.cmake finds them by it)."""

class OutsideAdapter(Harness):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="eltwise-outside-")
        cls.python = make_venv(cls.folder)
        check_run([cls.python, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                   copy_kit(cls.folder)], cwd=cls.folder)
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


class Install(Harness):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="eltwise-install-")
        cls.python = make_venv(cls.folder)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def install(self, name, source):
        target = os.path.join(self.folder, name)
        return target, pip_install(self.python, source, "--target", target)

    def test_installing_leaves_the_kit_unchanged(self):
        source = copy_kit(tempfile.mkdtemp(dir=self.folder))
        before = tree(source)
        target, proc = self.install("unchanged", source)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        after = tree(source)
        self.assertEqual(sorted(after.keys() - before.keys()), [])  # no build/, no .egg-info
        self.assertEqual([k for k in before if after.get(k) != before[k]], [])
        self.assertTrue(os.path.isfile(os.path.join(target, "eltwise_adapter_kit",
                                                    "op_table.json")))

    def test_a_plain_copy_installs_with_its_op_table(self):
        target, proc = self.install("copy", copy_kit(tempfile.mkdtemp(dir=self.folder)))
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        read = check_run([self.python, "-c", "import eltwise_adapter_kit as k, json; "
                          "print(json.dumps([k.__file__, list(k.OPS.values())]))"],
                         cwd=self.folder, env={**ENV, "PYTHONPATH": target}).stdout
        path, table = json.loads(read)
        self.assertTrue(path.startswith(target), path)
        with open(os.path.join(KIT, "..", "..", "..", "core", "op_table.json")) as f:
            self.assertEqual(table, json.load(f))

    def test_a_kit_without_its_table_fails_to_build(self):
        source = copy_kit(tempfile.mkdtemp(dir=self.folder))
        table = os.path.join(source, "eltwise_adapter_kit", "op_table.json")
        os.remove(table)
        os.symlink(os.path.join("..", "..", "..", "..", "core", "op_table.json"), table)
        target, proc = self.install("no-table", source)  # the symlink dangles in the copy
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("op_table.json: the op-version table, a copy of core/op_table.json, "
                      "cannot be read", proc.stdout + proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(target, "eltwise_adapter_kit")))


if __name__ == "__main__":
    unittest.main()
