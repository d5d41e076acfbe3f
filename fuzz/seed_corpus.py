#!/usr/bin/python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/) from the project's test data.

Usage: seed_corpus.py RESULTS_JSONL
RESULTS_JSONL is a results file of a run with deviations (the README's planted saturate-u8 run);
the other seeds come from spec_cases/data, ONNX's node tests (libonnx-testdata),
backends/PROTOCOL.md's messages and numpy. Each seed is named by its SHA-1, as libFuzzer names
corpus files.
"""
import glob, hashlib, io, json, os, re, sys
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus")
ONNX_NODES = "/usr/share/libonnx-testdata/data/node"
TYPES = ["boolean", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32",
         "f64"]  # the order of core::kElementTypes: a selector byte k picks TYPES[k % 13]


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def npy_bytes(array, fortran=False):
    f = io.BytesIO()
    np.save(f, np.asfortranarray(array) if fortran else array)
    return f.getvalue()


def seed_npy():
    arrays = [np.arange(6, dtype=t).reshape(2, 3) for t in
              ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"]]
    arrays += [np.array([True, False]), np.float32(1.5), np.zeros((0, 3), "f4"),
               np.arange(4, dtype=">i4"), np.array([np.nan, -0.0, np.inf], "f8")]
    for a in arrays:
        put("npy_reader", b"\0" + npy_bytes(a))
    put("npy_reader", b"\0" + npy_bytes(np.arange(6, dtype="f4").reshape(2, 3), fortran=True))
    put("npy_reader", bytes([1 + TYPES.index("bf16")]) + npy_bytes(np.arange(3, dtype="u2")))
    v2 = bytearray(npy_bytes(np.arange(3, dtype="f4")))
    header = v2[10:]
    put("npy_reader", b"\0\x93NUMPY\x02\x00" + len(header[:-12]).to_bytes(4, "little") +
        bytes(header[:-12]) + bytes(header[-12:]))


def seed_text():
    values = set()
    for line in open(os.path.join(ROOT, "spec_cases", "data", "edge_values.txt")):
        fields = [f.strip() for f in line.split("|")]
        if line.startswith("#") or len(fields) < 6:
            continue
        for dtype in fields[2].split(","):
            if dtype.strip() in TYPES:
                for v in fields[3:6]:
                    values.add((dtype.strip(), v))
    for dtype, v in sorted(values)[:400]:
        put("element_text", bytes([TYPES.index(dtype)]) + v.encode())
        put("inline_tensor", b"\0" + f"{dtype}:3:{v},{v},1".encode())
    for text in ["f32:2x2:1,2,3,4", "i32::7", "u8:0x4:", "f16:2x3:[1, -0, nan, inf, -inf, 0x1p-24]",
                 "bf16:4:max", "i64:2:min,max", "f64:1:denorm_min", "2x2:1,2,3,4"]:
        put("inline_tensor", b"\0" + text.encode())
    put("inline_tensor", bytes([1 + TYPES.index("f32")]) + b"2x2:1,2,3,4")


def seed_attributes():
    for path in glob.glob(os.path.join(ROOT, "spec_cases", "data", "*.txt")):
        for line in open(path):
            for m in re.finditer(r"((?:\b[a-z_]+=[^ |]+ ?)+)", line):
                put("attributes", m.group(1).strip())
    for text in ["broadcast=1 axis=-1", "auto_broadcast=pdpd axis=2", "m_pythondiv=False",
                 "pythondiv=1 auto_broadcast=NUMPY", "consumed_inputs=1,2"]:
        put("attributes", text)


def seed_onnx():
    for d in sorted(glob.glob(os.path.join(ONNX_NODES, "test_mul*")) +
                    glob.glob(os.path.join(ONNX_NODES, "test_div*"))):
        put("onnx", b"\1" + open(os.path.join(d, "model.onnx"), "rb").read())
        for pb in sorted(glob.glob(os.path.join(d, "test_data_set_0", "*.pb"))):
            data = open(pb, "rb").read()
            if len(data) <= 4096:
                put("onnx", b"\0" + data)


def seed_openvino():
    for path in glob.glob(os.path.join(ROOT, "spec_cases", "data", "openvino", "*.xml")):
        put("openvino_xml", open(path, "rb").read())


def seed_protocol():
    ops = {"onnx.Mul-14": ["f32", "f64", "i32"], "openvino.Divide-1": ["f32", "i64"]}
    put("protocol", b"\0" + json.dumps({"protocol": "eltwise-backend/1", "name": "numpy",
                                        "version": "1.24.2", "ops": ops}).encode())
    request = {"id": 17, "op": "openvino.Divide-1",
               "attributes": {"auto_broadcast": "numpy", "m_pythondiv": "true"},
               "a": {"path": "/dev/shm/e/17.a.npy", "dtype": "i32", "shape": [8, 1, 6, 1]},
               "b": {"path": "/dev/shm/e/17.b.npy", "dtype": "i32", "shape": [7, 1, 5]},
               "out": "/dev/shm/e/17.out.npy"}
    put("protocol", b"\1" + json.dumps(request).encode())
    # the extensions: graph forms, the shared output region (PROTOCOL.md section 9, items 16, 17)
    put("protocol", b"\0" + json.dumps({"protocol": "eltwise-backend/1", "name": "host",
                                        "ops": ops, "graph_forms": ["runtime", "const-b"],
                                        "output_region": True}).encode())
    put("protocol", b"\1" + json.dumps(dict(request, graph_form="dynamic", out_region={
        "path": "/proc/4242/fd/7", "bytes": 1 << 20})).encode())
    for answer in [{"id": 17, "status": "ok"}, {"id": 3, "status": "ok", "dtype": "bf16"},
                   {"id": 8, "status": "ok", "in_region": True},
                   {"id": 9, "status": "error", "in_region": True},
                   {"id": 4, "status": "rejected", "message": "shapes do not broadcast"},
                   {"id": 5, "status": "unsupported"}, {"id": 6, "status": "error",
                                                        "message": "out of memory"},
                   {"id": 7, "status": "ok", "compilations": 2}]:
        put("protocol", b"\2" + json.dumps(answer).encode())
    # a compiling backend's hello (item 19)
    put("protocol", b"\0" + json.dumps({"protocol": "eltwise-backend/1", "name": "inductor",
                                        "ops": ops, "compile": {
                                            "compiler": "inductor", "target": "cpu avx512",
                                            "shapes": "dynamic", "latency_seconds": 9.5}}).encode())


def seed_expectations():
    put("expectations", "# comment\nrandom:onnx.Mul-14:u8:*  FAILED\n"
        "invalid:openvino.Multiply-1:*  ACCEPTED_INVALID\nedge:edge.subnormal.bf16:*  FAILED?\n")
    put("expectations", "exhaustive16:onnx.Div-14:i16:[ab]=0x8*  CRASHED\n*  PASSED\n")


def seed_case_ids():
    for text in ("random:onnx.Div-7:i32:numpy:seed=1:n=4:shrink=26.0.0.38.0.0.2.1.1.3.3.5",
                 "random:openvino.Divide-1:i64:pdpd:trunc:seed=1:n=7:pairs=1953-1953",
                 "exhaustive16:onnx.Div-14:i16:a=0x8000:b=0xffff",
                 "exhaustive16:onnx.Mul-14:f16:b=0x0100-0x01ff:pairs=0-7",
                 "spec:broadcast.numpy.2x3_by_1:onnx.Mul-14:2:pairs=3-5:pairs=0-0",
                 "edge:x:pairs=5-2", "random:onnx.Mul-14:u8:numpy:seed=1:n=0:pairs=-1"):
        put("case_id", text)


def seed_results(path):
    lines = open(path).read().splitlines()
    run, cases = lines[0], lines[1:]
    by_status = {}
    for line in cases:
        by_status.setdefault(json.loads(line)["status"], []).append(line)
    for status, group in sorted(by_status.items()):
        put("results", "\n".join([run] + group[:3]) + "\n")
    put("results", "\n".join([run] + cases[:20]) + "\n")
    put("results", run + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    seed_npy()
    seed_text()
    seed_attributes()
    seed_onnx()
    seed_openvino()
    seed_protocol()
    seed_expectations()
    seed_case_ids()
    seed_results(sys.argv[1])
    for target in sorted(os.listdir(OUT)):
        print(target, len(os.listdir(os.path.join(OUT, target))), "seeds")


main()
