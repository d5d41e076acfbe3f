#!/usr/bin/python3
"""Unit tests of the Python adapter kit (eltwise_adapter_kit). Expected values are written by
hand from the specs and backends/PROTOCOL.md, never taken from the kit.

    PYTHONPATH=backends/kit/python /usr/bin/python3 backends/kit/python/tests/kit_test.py
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import checks, lowering, op_table, smoke, tensors

HERE = os.path.dirname(os.path.abspath(__file__))


def request_for(folder, op, a, b, dtype=None, attributes=None, **extra):
    """A request with A and B saved as .npy in `folder` (dtype: the suite name, default from
    the arrays)."""
    names = {}
    for n, array in (("a", a), ("b", b)):
        names[n] = {"path": os.path.join(folder, n + ".npy"), "shape": list(array.shape),
                    "dtype": dtype or tensors.type_name(array.dtype)}
        np.save(names[n]["path"], array)
    return {"id": 7, "op": op, **names, "out": os.path.join(folder, "out.npy"),
            "attributes": attributes or {}, **extra}



class Harness(unittest.TestCase):
    """The base of the test classes (cmake/PythonTests.cmake finds them by it)."""

class Answers(Harness):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="kit-test-")

    def test_ok_writes_the_file_and_names_the_type(self):
        request = request_for(self.folder, "onnx.Mul-14", np.array([1.5, -2], np.float32),
                              np.array([2, 3], np.float32))
        response = kit.answer(request, lambda r: np.array([3.0, -6.0], np.float32))
        self.assertEqual(response, {"id": 7, "status": "ok", "dtype": "f32"})
        self.assertEqual(np.load(request["out"]).tolist(), [3.0, -6.0])

    def test_zero_d_results_stay_zero_d(self):
        request = request_for(self.folder, "onnx.Mul-14", np.float64(2), np.float64(3))
        kit.answer(request, lambda r: np.float64(6))
        self.assertEqual(np.load(request["out"]).shape, ())

    def test_bf16_output_is_written_as_bits_and_labelled(self):
        request = request_for(self.folder, "onnx.Mul-14", np.zeros(1, np.uint16),
                              np.zeros(1, np.uint16), dtype="bf16")
        bits = np.array([0x3F80], np.int16)  # 1.0 in bf16, from a library without uint16
        response = kit.answer(request, lambda r: kit.Output(bits, "bf16"))
        self.assertEqual(response["dtype"], "bf16")
        out = np.load(request["out"])
        self.assertEqual((out.dtype, out.tolist()), (np.dtype("<u2"), [0x3F80]))

    def test_rejections_carry_a_reason_only_when_given(self):
        def reject(reason):
            return lambda r: (_ for _ in ()).throw(kit.Rejected("bad", reason))
        with_reason = kit.answer({"id": 1}, reject("shape"))
        without = kit.answer({"id": 2}, reject(None))
        self.assertEqual(with_reason, {"id": 1, "status": "rejected", "message": "bad",
                                       "reason": "shape"})
        self.assertEqual(without, {"id": 2, "status": "rejected", "message": "bad"})

    def test_a_reason_outside_the_protocol_is_a_programming_error(self):
        with self.assertRaises(ValueError):
            kit.Rejected("bad", "value")

    def test_failures_and_exceptions_are_errors(self):
        failed = kit.answer({"id": 3}, lambda r: (_ for _ in ()).throw(kit.Failed("it broke")))
        crashed = kit.answer({"id": 4}, lambda r: 1 // 0)
        self.assertEqual(failed, {"id": 3, "status": "error", "message": "it broke"})
        self.assertEqual(crashed["status"], "error")
        self.assertIn("ZeroDivisionError", crashed["message"])
        self.assertEqual(kit.answer("not a dict", lambda r: 0)["id"], -1)

    def test_region_gets_the_whole_npy_when_it_fits(self):
        region = os.path.join(self.folder, "region")
        with open(region, "wb") as f:
            f.write(b"\0" * 4096)
        request = request_for(self.folder, "onnx.Mul-14", np.ones(3, np.int32),
                              np.ones(3, np.int32), out_region={"path": region, "bytes": 4096})
        response = kit.answer(request, lambda r: np.array([1, 2, 3], np.int32))
        self.assertTrue(response["in_region"])
        self.assertFalse(os.path.exists(request["out"]))
        with open(region, "rb") as f:
            self.assertEqual(np.load(f).tolist(), [1, 2, 3])
        small = dict(request, out_region={"path": region, "bytes": 16})  # too small: the file
        self.assertNotIn("in_region", kit.answer(small, lambda r: np.arange(3, dtype=np.int32)))
        self.assertEqual(np.load(request["out"]).tolist(), [0, 1, 2])

    def test_inputs_in_the_region_are_read_in_place(self):
        # A region as the validator writes it: junk, then A's .npy at offset 192 (numpy's own).
        path = os.path.join(self.folder, "input-region")
        with open(path, "wb") as f:
            f.write(b"\7" * 192)
            np.save(f, np.array([[1, 2, 3], [4, 5, 6]], np.int32))
            f.write(b"\9" * 64)
        a = {"path": path, "offset": 192, "dtype": "i32", "shape": [2, 3]}
        array = kit.load_input(a)
        self.assertEqual(array.tolist(), [[1, 2, 3], [4, 5, 6]])
        self.assertFalse(array.flags.writeable)
        with self.assertRaisesRegex(ValueError, "at offset 0: not a .npy file"):
            kit.load_input(dict(a, offset=0))
        with self.assertRaisesRegex(ValueError, "at offset 192 holds int32 \\[2, 3\\], the "
                                                "request says i32 \\[3, 2\\]"):
            kit.load_input(dict(a, shape=[3, 2]))
        with open(path, "r+b") as f:
            f.truncate(192 + 128 + 20)  # the data cut short
        with self.assertRaisesRegex(ValueError, "data past the region's 340 bytes"):
            kit.load_input(a)

    def test_a_capped_address_space_maps_each_input_alone(self):
        # The validator's region is as large as the machine's memory, and sparse; a process whose
        # address space is capped below it (onnx-reference caps itself at 2 GiB) maps windows.
        path = os.path.join(self.folder, "large-region")
        offset = (3 << 30) + 192
        with open(path, "wb") as f:
            f.seek(offset)
            np.save(f, np.array([[1, 2, 3], [4, 5, 6]], np.int32))
            f.truncate(4 << 30)
        child = ("import resource, sys\n"
                 "import eltwise_adapter_kit as kit\n"
                 "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, resource.RLIM_INFINITY))\n"
                 "a = {'path': sys.argv[1], 'offset': int(sys.argv[2]), 'dtype': 'i32', "
                 "'shape': [2, 3]}\n"
                 "print(kit.load_input(a).tolist())\n")
        run = subprocess.run([sys.executable, "-c", child, path, str(offset)],
                             capture_output=True, text=True, check=False)
        self.assertEqual((run.returncode, run.stdout.strip()), (0, "[[1, 2, 3], [4, 5, 6]]"),
                         run.stderr[-2000:])

    def test_inputs_must_match_the_request(self):
        request = request_for(self.folder, "onnx.Mul-14", np.ones(3, np.int32),
                              np.ones(3, np.int32))
        request["a"]["dtype"] = "i64"
        with self.assertRaisesRegex(ValueError, "the request says i64"):
            kit.load_input(request["a"])


class Checks(Harness):
    def test_types_in_the_reference_order(self):
        cases = [("boolean", "boolean", "type"), ("i32", "i64", "type"), ("i8", "i8", "type")]
        for a, b, reason in cases:  # onnx.Mul-7 does not allow i8 (ONNX Mul-7: int32+ only)
            with self.assertRaises(kit.Rejected) as caught:
                checks.check_types("onnx.Mul-7", a, b)
            self.assertEqual(caught.exception.reason, reason)
        checks.check_types("onnx.Mul-14", "i8", "i8")

    def test_openvino_attributes(self):
        op = "openvino.Divide-1"
        self.assertEqual(checks.resolve_attributes(op, {}), ("numpy", True))  # pythondiv default
        self.assertEqual(checks.resolve_attributes(op, {"m_pythondiv": "FALSE",
                                                        "auto_broadcast": "NONE"}),
                         ("none", False))
        self.assertEqual(checks.resolve_attributes(op, {"pythondiv": "0"})[1], False)  # alias
        for bad in ({"auto_broadcast": "bidirectional"}, {"colour": "red"},
                    {"pythondiv": "true", "m_pythondiv": "true"}):
            with self.assertRaises(kit.Rejected) as caught:
                checks.resolve_attributes(op, bad)
            self.assertEqual(caught.exception.reason, "attribute")

    def test_legacy_attributes(self):
        op = "onnx.Mul-6"
        self.assertEqual(checks.legacy_attributes(op, {"broadcast": "1", "axis": "0"}), (True, 0))
        self.assertEqual(checks.legacy_attributes(op, {}), (False, None))
        for bad in ({"broadcast": "2"}, {"axis": "-1"}, {"axis": "x"}):
            with self.assertRaises(kit.Rejected):
                checks.legacy_attributes(op, bad)
        self.assertEqual(checks.legacy_attributes("onnx.Mul-1", {"consumed_inputs": "0,1"}),
                         (False, None))


class Lowering(Harness):
    def test_legacy_shapes(self):
        # ONNX Mul-6 broadcast=1: B (3, 4) matches A (2, 3, 4, 5) from axis 1 -> (3, 4, 1)
        self.assertEqual(lowering.legacy_b_shape((2, 3, 4, 5), (3, 4), 1), (3, 4, 1))
        self.assertEqual(lowering.legacy_b_shape((2, 3, 4, 5), (4, 5), None), (4, 5))
        # one element: B as the case gives it, a tensor (numpy broadcasts it to A's shape)
        self.assertEqual(lowering.legacy_b_shape((2, 3), (1, 1), None), (1, 1))
        with self.assertRaises(kit.Rejected):
            lowering.legacy_b_shape((2, 3, 4, 5), (1, 5), None)  # 1s do not stretch here

    def test_pdpd_shapes(self):
        # OpenVINO pdpd: A (2, 3, 4, 5), B (3, 1), axis 1 -> B's trailing 1 dropped -> (3, 1, 1)
        self.assertEqual(lowering.pdpd_b_shape((2, 3, 4, 5), (3, 1), 1), (3, 1, 1))
        self.assertEqual(lowering.pdpd_b_shape((2, 3, 4, 5), (4, 5), -1), (4, 5))
        self.assertEqual(lowering.pdpd_b_shape((2, 3), (3, 1), 1), (3,))  # B's 1 dropped first
        with self.assertRaises(kit.Rejected):
            lowering.pdpd_b_shape((2, 3, 4, 5), (4,), 1)

    def test_a_one_element_b_stays_a_tensor_of_its_rank(self):
        folder = tempfile.mkdtemp(prefix="kit-test-")
        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        cases = [("onnx.Mul-6", (1,), {"broadcast": "1"}), ("onnx.Div-1", (1, 1), {"broadcast": "1"}),
                 ("onnx.Mul-6", (1,), {"broadcast": "1", "axis": "1"}),
                 ("openvino.Multiply-1", (1, 1),
                  {"auto_broadcast": "pdpd", "auto_broadcast_axis": "1"}),
                 ("openvino.Multiply-1", (1, 1), {"auto_broadcast": "pdpd"})]
        for op, shape, attributes in cases:
            request = request_for(folder, op, a, np.full(shape, 2, np.float32),
                                  attributes=attributes)
            plan, _, b = lowering.load_planned(request)
            self.assertEqual(b.shape, shape, (op, attributes))  # not a 0-d array
            self.assertEqual(np.broadcast_shapes(a.shape, b.shape), (2, 3))
        # a reshape only where numpy needs one: B (3, 1) under pdpd axis 0 of A (3, 2)
        request = request_for(folder, "openvino.Multiply-1", a.reshape(3, 2),
                              np.ones((3, 1), np.float32),
                              attributes={"auto_broadcast": "pdpd", "auto_broadcast_axis": "0"})
        self.assertEqual(lowering.load_planned(request)[2].shape, (3, 1))
        request = request_for(folder, "onnx.Mul-6", np.ones((2, 3, 4), np.float32),
                              np.ones(3, np.float32), attributes={"broadcast": "1", "axis": "1"})
        self.assertEqual(lowering.load_planned(request)[2].shape, (3, 1))

    def test_floor_is_integer_floor_division_only(self):
        folder = tempfile.mkdtemp(prefix="kit-test-")
        cases = [("openvino.Divide-1", np.int32, {}, True),  # m_pythondiv: true by default
                 ("openvino.Divide-1", np.int32, {"m_pythondiv": "false"}, False),
                 ("openvino.Divide-1", np.float32, {}, False),  # float division: no floor
                 ("openvino.Divide-1", np.float64, {"m_pythondiv": "true"}, False),
                 ("openvino.Multiply-1", np.int32, {}, False), ("onnx.Div-14", np.int32, {}, False)]
        for op, dtype, attributes, floor in cases:
            request = request_for(folder, op, np.ones(2, dtype), np.ones(2, dtype),
                                  attributes=attributes)
            self.assertEqual(lowering.plan(request).floor, floor, (op, dtype, attributes))

    def test_numpy_broadcasting_can_be_left_to_the_library(self):
        folder = tempfile.mkdtemp(prefix="kit-test-")
        request = request_for(folder, "onnx.Mul-14", np.ones((2, 3), np.float32),
                              np.ones(2, np.float32))  # (2, 3) with (2,): invalid for numpy
        with self.assertRaises(kit.Rejected) as caught:
            lowering.plan(request)  # the default: numpy's check and message
        self.assertEqual(caught.exception.reason, "shape")
        self.assertEqual(lowering.plan(request, kit.left_to_library).b_shape, None)
        mixed = dict(request, b=dict(request["b"], dtype="f64"))
        with self.assertRaises(kit.Rejected):  # types stay the kit's: libraries promote
            lowering.plan(mixed, kit.left_to_library)

    def test_plan_order_and_results(self):
        folder = tempfile.mkdtemp(prefix="kit-test-")
        request = request_for(folder, "openvino.Multiply-1", np.ones((2, 3), np.float32),
                              np.ones(2, np.float32),
                              attributes={"auto_broadcast": "pdpd", "auto_broadcast_axis": "0"})
        self.assertEqual(lowering.plan(request), lowering.Plan("openvino.Multiply-1", "f32",
                                                               False, (2, 1)))
        with self.assertRaises(kit.Unsupported):
            lowering.plan(dict(request, op="onnx.Pow-15"))
        mixed = dict(request, b=dict(request["b"], dtype="f64"), attributes={"colour": "x"})
        with self.assertRaises(kit.Rejected) as caught:  # types are checked first
            lowering.plan(mixed)
        self.assertEqual(caught.exception.reason, "type")


class Tables(Harness):
    def test_claims_leave_out_truncating_division_on_request(self):
        claims = op_table.claims({"i32", "f32"}, truncating_division=False)
        self.assertEqual(claims["onnx.Div-14"], ["f32"])
        self.assertEqual(claims["openvino.Divide-1"], ["i32", "f32"])
        self.assertIn("i32", op_table.claims({"i32"}, truncating_division=True)["onnx.Div-14"])

    def test_graph_forms_and_cache(self):
        with self.assertRaises(kit.Unsupported):
            kit.graph_form({"graph_form": "dynamic"}, ("const-a",))
        self.assertEqual(kit.graph_form({}, ()), "runtime")
        cache, built = kit.ModelCache(size=2), []
        for key in ("x", "y", "x", "z", "y", None, None):
            cache.get(key, lambda k=key: built.append(k) or k)
        self.assertEqual(built, ["x", "y", "z", "y", None, None])  # y was evicted by z

    def test_hello(self):
        self.assertEqual(kit.hello("lib", 1.5, {}, ("const-b",)),
                         {"protocol": "eltwise-backend/1", "name": "lib", "version": "1.5",
                          "ops": {}, "graph_forms": ["runtime", "const-b"],
                          "output_region": True, "input_region": True})

    def test_compilations_reach_the_next_answer_only(self):
        # PROTOCOL.md section 9, item 19: a cache that compiles counts each build, kept or not.
        cache = kit.ModelCache(compiles=True)
        for key in ("x", "x", None):
            cache.get(key, lambda: 1)
        unsupported = lambda request: (_ for _ in ()).throw(kit.Unsupported("no"))  # noqa: E731
        self.assertEqual(kit.answer({"id": 1}, unsupported)["compilations"], 2)
        self.assertNotIn("compilations", kit.answer({"id": 2}, unsupported))
        kit.compiled(3)
        self.assertEqual(kit.answer({"id": 3}, unsupported)["compilations"], 3)
        kit.ModelCache().get("y", lambda: 1)  # a cache that does not compile counts nothing
        self.assertNotIn("compilations", kit.answer({"id": 4}, unsupported))
        compile_info = {"compiler": "c", "latency_seconds": 2}
        self.assertEqual(kit.hello("lib", 1, {}, compile=compile_info)["compile"], compile_info)


class OutputComparison(Harness):
    """The judge's rule (comparison::same_element, docs/SEMANTICS.md section 2.5): the same
    bits, or both NaN; -0 and +0 differ. Values written as bit patterns by hand."""

    @staticmethod
    def floats(bits, unsigned, dtype):
        return np.array(bits, dtype=unsigned).view(dtype)

    def test_nans_of_different_payloads_and_signs_are_the_same(self):
        f32 = self.floats([0x7FC00000, 0xFFC00001, 0x7F800001], np.uint32, np.float32)
        self.assertTrue(kit.same_outputs("f32", f32, f32[::-1].copy()))
        f64 = self.floats([0x7FF8000000000000, 0xFFF0000000000001], np.uint64, np.float64)
        self.assertTrue(kit.same_outputs("f64", f64, f64[::-1].copy()))
        f16 = self.floats([0x7E00, 0xFC01], np.uint16, np.float16)
        self.assertTrue(kit.same_outputs("f16", f16, f16[::-1].copy()))
        bf16 = np.array([0x7FC0, 0xFF81], dtype=np.uint16)  # raw bits, as the kit's files hold
        self.assertTrue(kit.same_outputs("bf16", bf16, bf16[::-1].copy()))

    def test_zeros_of_different_signs_differ(self):
        for dtype, unsigned, floating in (("f16", np.uint16, np.float16),
                                          ("f32", np.uint32, np.float32),
                                          ("f64", np.uint64, np.float64)):
            sign = 1 << (8 * np.dtype(unsigned).itemsize - 1)
            minus, plus = (self.floats([b], unsigned, floating) for b in (sign, 0))
            self.assertFalse(kit.same_outputs(dtype, minus, plus), dtype)
        self.assertFalse(kit.same_outputs("bf16", np.array([0x8000], np.uint16),
                                          np.array([0], np.uint16)))

    def test_same_bits_are_the_same_and_others_not(self):
        f32 = np.array([1.5, -np.inf, 2.0**-149], dtype=np.float32)
        self.assertTrue(kit.same_outputs("f32", f32, f32.copy()))
        self.assertFalse(kit.same_outputs("f32", f32, np.array([1.5, np.inf, 0], np.float32)))
        infinity, nan = np.array([0x7F80], np.uint16), np.array([0x7F81], np.uint16)
        self.assertFalse(kit.same_outputs("bf16", infinity, nan))  # bf16 +inf is no NaN
        self.assertTrue(kit.same_outputs("i64", np.array([-1, 7]), np.array([-1, 7])))
        self.assertFalse(kit.same_outputs("u8", np.array([1], np.uint8), np.array([2], np.uint8)))
        self.assertEqual(kit.same_elements("i8", np.array([1, 2], np.int8),
                                           np.array([1, 3], np.int8)).tolist(), [True, False])
        self.assertFalse(kit.same_outputs("i32", np.zeros((2, 3), np.int32),
                                          np.zeros(6, np.int32)))  # shapes differ

    def test_an_output_of_another_type_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "f32 output held as float64"):
            kit.same_outputs("f32", np.zeros(2), np.zeros(2, np.float32))
        with self.assertRaisesRegex(ValueError, "unknown element type 'f8'"):
            kit.same_outputs("f8", np.zeros(2), np.zeros(2))


class Smoke(Harness):
    """The smoke check passes the kit's example and finds a planted bug."""

    def run_smoke(self, adapter):
        return subprocess.run([sys.executable, "-m", "eltwise_adapter_kit.smoke", "--",
                               sys.executable, *adapter], capture_output=True, text=True,
                              timeout=120)

    def test_example_passes(self):
        proc = self.run_smoke(["-m", "eltwise_adapter_kit.example"])
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        # every claimed pair (82: the table's types numpy has, without ONNX's truncating signed
        # division); unsupported: Divide-1 m_pythondiv=false on i8, i16, i32, i64 (no trunc)
        self.assertIn("82 pairs, 130 valid requests (4 unsupported), 0 problems", proc.stdout)

    def test_planted_bug_is_found(self):
        proc = self.run_smoke([os.path.join(HERE, "smoke_planted_bug.py"), "onnx-div-floors"])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("onnx.Div-14 i32 (defaults): [[3, -2, -1], [-4, 2, -1]] where "
                      "[[3, -1, 0], [-4, 2, 0]] is exact", proc.stdout)

    def test_planted_pythondiv_mix_up_is_found(self):
        proc = self.run_smoke([os.path.join(HERE, "smoke_planted_bug.py"), "pythondiv-swapped"])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        # m_pythondiv=true (the default) floors: -5/3 = -2, 3/-4 = -1, 1/-4 = -1
        self.assertIn("openvino.Divide-1 i32 (defaults): [[3, -1, 0], [-4, 2, 0]] where "
                      "[[3, -2, -1], [-4, 2, -1]] is exact", proc.stdout)
        # m_pythondiv=false truncates: -5/3 = -1, 3/-4 = 0, 1/-4 = 0
        self.assertIn("openvino.Divide-1 i64 (m_pythondiv=false): [[3, -2, -1], [-4, 2, -1]] "
                      "where [[3, -1, 0], [-4, 2, 0]] is exact", proc.stdout)
        self.assertIn("12 problems", proc.stdout)  # Divide-1 on i8..i64, three requests each

    def test_planted_legacy_broadcast_bug_is_found(self):
        proc = self.run_smoke([os.path.join(HERE, "smoke_planted_bug.py"), "legacy-ignores-axis"])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("onnx.Mul-6 i32 (broadcast=1 axis=0): answered error", proc.stdout)
        problems = [line for line in proc.stdout.splitlines() if " answered " in line]
        self.assertTrue(all("(broadcast=1 axis=0)" in line for line in problems), problems)
        # one per legacy pair: Mul-1 (3 types), Mul-6 (7), Div-1 (3), Div-6 (5)
        self.assertEqual(len(problems), 18, proc.stdout)

    def test_a_result_file_of_another_type_is_a_problem(self):
        class Adapter:  # answers the exact f32 quotients (6 decimal digits), saved as `saved`
            saved = np.float32

            def ask(self, request):
                a, b = np.load(request["a"]["path"]), np.load(request["b"]["path"])
                np.save(request["out"], (a / b).astype(np.float32).astype(self.saved))
                return {"status": "ok", "dtype": "f32"}

        folder = tempfile.mkdtemp(prefix="kit-test-")
        paths = [os.path.join(folder, n) for n in ("a.npy", "b.npy", "out.npy")]
        request = smoke.requests("onnx.Div-14", "f32")[0]
        self.assertEqual(smoke.check_request(Adapter(), paths, "onnx.Div-14", "f32", request), [])
        Adapter.saved = np.float64  # the same values in an f64 file: not the f32 it claims
        self.assertEqual(smoke.check_request(Adapter(), paths, "onnx.Div-14", "f32", request),
                         ["onnx.Div-14 f32 (defaults): result is f32 [2, 3] in a float64 file"])

    def test_expected_values_by_hand(self):
        a, b = smoke.inputs("i8")
        # ONNX Div truncates: 7/2=3, -5/3=-1, 3/-4=0, -8/2=-4, 6/3=2, 1/-4=0
        self.assertEqual(smoke.expected("onnx.Div-14", "i8", a, b).tolist(),
                         [[3, -1, 0], [-4, 2, 0]])
        # OpenVINO Divide-1 floors by default: -5/3=-2, 3/-4=-1, 1/-4=-1
        self.assertEqual(smoke.expected("openvino.Divide-1", "i8", a, b).tolist(),
                         [[3, -2, -1], [-4, 2, -1]])
        # ... and truncates with m_pythondiv=false (as ONNX Div)
        self.assertEqual(smoke.expected("openvino.Divide-1", "i8", a, b,
                                        {"m_pythondiv": "false"}).tolist(),
                         [[3, -1, 0], [-4, 2, 0]])
        # B [2] along A's rows (legacy axis=0, pdpd axis 0): row 0 by 2, row 1 by -3
        # (floor: -5/2=-3, 1/-3=-1; trunc: -2, 0)
        a, rows = smoke.inputs("i16", smoke.B_ALONG_ROWS)
        self.assertEqual(smoke.expected("openvino.Divide-1", "i16", a, rows.reshape(2, 1)).tolist(),
                         [[3, -3, 1], [2, -2, -1]])
        self.assertEqual(smoke.expected("onnx.Div-6", "i16", a, rows.reshape(2, 1)).tolist(),
                         [[3, -2, 1], [2, -2, 0]])
        self.assertEqual(smoke.expected("onnx.Mul-6", "i16", a, rows.reshape(2, 1)).tolist(),
                         [[14, -10, 6], [24, -18, -3]])
        big = np.array([100], np.int8)
        self.assertEqual(smoke.expected("onnx.Mul-14", "i8", big, big).tolist(), [16])  # wraps

    def test_every_claimed_pair_gets_its_attribute_requests(self):
        def labels(op):
            return [r.label() for r in smoke.requests(op, "i32")]
        self.assertEqual(labels("onnx.Mul-1"), ["broadcast=1", "broadcast=1 axis=0"])
        self.assertEqual(labels("onnx.Div-14"), ["defaults"])
        self.assertEqual(labels("openvino.Divide-1"),
                         ["defaults", "auto_broadcast=pdpd auto_broadcast_axis=0",
                          "m_pythondiv=false"])
        self.assertEqual(len(smoke.requests("openvino.Divide-1", "f32")), 2)  # no m_pythondiv


if __name__ == "__main__":
    unittest.main()
