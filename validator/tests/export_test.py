#!/usr/bin/env python3
"""`eltwise-validate export --format onnx-node-tests`, read back by ONNX's own backend-test loader
(onnx.backend.test.loader.load_model_tests) and run by ONNX Runtime's Python backend
(onnxruntime.backend, ONNX's backend API): every exported case loads, and ONNX Runtime's output
equals the exported one bit for bit. Run with the project's .venv Python (onnx, onnxruntime).

The subset leaves out what ONNX Runtime is known to get wrong (findings onnxruntime-1, -3): i32
and i64 division (INT_MIN / -1 kills the process) and opset 1 f16.

    ELTWISE_VALIDATE=build/release/bin/eltwise-validate .venv/bin/python validator/tests/export_test.py
"""
import glob
import os
import subprocess
import tempfile
import unittest

import numpy as np
import onnx
import onnxruntime.backend
from onnx import numpy_helper
from onnx.backend.test.loader import load_model_tests

VALIDATE = os.environ.get("ELTWISE_VALIDATE", "eltwise-validate")
SUBSET = ["--cases", "spec,edge,random", "--count", "2", "--op",
          "onnx.Mul-7,onnx.Mul-13,onnx.Mul-14,onnx.Div-7,onnx.Div-13,onnx.Div-14",
          "--dtype", "f16,f32,f64,u8,u32,u64"]


def tensor(path):
    return numpy_helper.to_array(onnx.load_tensor(path))


def same_bits(x, y):
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind == "f":  # any NaN matches any NaN (docs/SEMANTICS.md); zeros keep their sign
        both_nan = np.isnan(x) & np.isnan(y)
        return bool(np.all(both_nan | (x.view(f"u{x.itemsize}") == y.view(f"u{y.itemsize}"))))
    return bool(np.array_equal(x, y))


class Harness(unittest.TestCase):
    """The base of the test classes (cmake/PythonTests.cmake finds them by it)."""


class ExportRoundTrip(Harness):
    def export(self, folder, *extra):
        proc = subprocess.run([VALIDATE, "export", "--format", "onnx-node-tests", folder,
                               *SUBSET, *extra], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return int(proc.stdout.split()[0]), proc.stdout

    def test_onnx_loader_and_onnxruntime_backend_agree(self):
        folder = tempfile.mkdtemp(prefix="eltwise-export-")
        written, summary = self.export(folder)
        self.assertGreater(written, 300, summary)
        cases = load_model_tests(data_dir=folder, kind="eltwise")
        self.assertEqual(len(cases), written)
        ran = 0
        for case in cases:
            self.assertEqual((case.rtol, case.atol), (0, 0), case.name)
            model = onnx.load(os.path.join(case.model_dir, "model.onnx"))
            data = os.path.join(case.model_dir, "test_data_set_0")
            inputs = [tensor(p) for p in sorted(glob.glob(os.path.join(data, "input_*.pb")))]
            want = tensor(os.path.join(data, "output_0.pb"))
            rep = onnxruntime.backend.prepare(model, device="CPU")
            got = np.asarray(rep.run(inputs)[0])
            self.assertTrue(same_bits(got, want), f"{case.name}: {got!r} where {want!r}")
            ran += 1
        self.assertEqual(ran, written)

    def test_planted_wrong_output_is_caught(self):
        """The check can fail: one exported output changed by one ulp no longer matches."""
        folder = tempfile.mkdtemp(prefix="eltwise-export-")
        self.export(folder, "--case", "spec:broadcast.numpy.2x3_by_1:onnx.Mul-14:2")
        (case,) = load_model_tests(data_dir=folder, kind="eltwise")
        path = os.path.join(case.model_dir, "test_data_set_0", "output_0.pb")
        want = tensor(path)
        bumped = want.copy()
        bumped.view(np.uint32)[...] += 1
        with open(path, "wb") as f:
            f.write(numpy_helper.from_array(bumped).SerializeToString())
        model = onnx.load(os.path.join(case.model_dir, "model.onnx"))
        inputs = [tensor(os.path.join(case.model_dir, "test_data_set_0", f"input_{i}.pb"))
                  for i in range(2)]
        got = np.asarray(onnxruntime.backend.prepare(model, device="CPU").run(inputs)[0])
        self.assertTrue(same_bits(got, want))
        self.assertFalse(same_bits(got, tensor(path)))

    def test_invalid_and_openvino_cases_are_left_out(self):
        folder = tempfile.mkdtemp(prefix="eltwise-export-")
        proc = subprocess.run([VALIDATE, "export", "--format", "onnx-node-tests", folder,
                               "--cases", "invalid", "--op", "openvino.Multiply-1,onnx.Mul-14",
                               "--count", "1"], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(proc.stdout.startswith("0 ONNX node tests"), proc.stdout)


if __name__ == "__main__":
    unittest.main()
