#!/usr/bin/python3
"""The adapter kit's numpy example with one fault, for the validator's integration tests.

Usage: fault_backend.py --fault KIND [--on-op ID] [--on-dtype T]

It answers like the adapter kit's example (eltwise_adapter_kit.example), except on the requests that match the
filters (op-version id, A's dtype; each filter is optional, default: every request):
  crash-abrt    os.abort()                       crash-segv  SIGSEGV to itself
  exit          sys.exit(3) without answering    hang        sleeps forever
  garbage       prints a line that is not JSON   wrong-id    answers with id + 1000
  stderr-flood  writes 20 MB to stderr, then answers correctly
  no-output     answers ok without writing the output file
  truncated     writes the output, then cuts the file to half its size
  wrong-shape   writes the output with an extra trailing dim of 1
  wrong-dtype   writes the output as f64 (f64 results: as f32); the answer names that dtype
  region-no-output  answers ok with "in_region" without writing into the shared region
  region-overflow   writes into the region a header whose shape needs more bytes than it has
  region-shrink     tries to truncate the region to 0 bytes (which its seals forbid), then
                    answers correctly through it
The output faults change only `ok` answers: a matching case that is rejected, unsupported or an
error is answered as usual. The region faults need a request that offers a region. Two faults act at start-up instead, on no request:
  bad-hello     the hello names protocol "eltwise-backend/99"
  no-hello      never prints the hello; sleeps
"""
import argparse
import io
import os
import signal
import sys
import time

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import example as nb  # the one copy of the backend logic
from eltwise_adapter_kit import tensors
import numpy as np


def sleep_forever():
    while True:
        time.sleep(3600)


def truncate_output(path, result):
    tensors.save_output(path, result)
    os.truncate(path, os.path.getsize(path) // 2)


def other_dtype(result):
    return result.astype(np.float32 if result.dtype == np.float64 else np.float64)


# Faults that end or stall the process before it answers.
STOPS = {
    "crash-abrt": os.abort,
    "crash-segv": lambda: os.kill(os.getpid(), signal.SIGSEGV),
    "exit": lambda: sys.exit(3),
    "hang": sleep_forever,
}
# Faults in how an `ok` answer's output is written: fn(path, result), to the file `out`.
SAVES = {
    "no-output": lambda path, result: None,
    "truncated": truncate_output,
    "wrong-shape": lambda path, result: tensors.save_output(path, result[..., np.newaxis]),
    "wrong-dtype": lambda path, result: tensors.save_output(path, other_dtype(result)),
}
ANSWERS = ["garbage", "wrong-id", "stderr-flood"]


def region_overflow(request, result):
    """A header claiming one more element than the region holds after it."""
    region = tensors.REGION.get(request["out_region"])
    header = {"descr": result.dtype.str, "fortran_order": False,
              "shape": (request["out_region"]["bytes"] // result.dtype.itemsize + 1,)}
    f = io.BytesIO()
    np.lib.format.write_array_header_1_0(f, header)
    region[:len(f.getvalue())] = f.getvalue()


def region_shrink(request, result):
    """The seals refuse the truncation (EPERM); the answer then goes through the region."""
    try:
        with open(request["out_region"]["path"], "r+b") as f:
            os.ftruncate(f.fileno(), 0)
        print("fault_backend: the region was truncated", file=sys.stderr, flush=True)
    except OSError as e:
        print(f"fault_backend: truncating the region failed: {e}", file=sys.stderr, flush=True)
    tensors.write_output(request, result)


# Faults in the shared region: fn(request, result) writes (or not); the answer says in_region.
REGIONS = {
    "region-no-output": lambda request, result: None,
    "region-overflow": region_overflow,
    "region-shrink": region_shrink,
}
KINDS = sorted([*STOPS, *SAVES, *ANSWERS, *REGIONS, "bad-hello", "no-hello"])


def region_answer(fault, request):
    def write(req, result, dtype):
        REGIONS[fault](req, result)
        return True  # the answer says in_region whatever was written

    return kit.answer(request, nb.evaluate, write)


def matches(args, request):
    request = request if isinstance(request, dict) else {}
    a = request.get("a") if isinstance(request.get("a"), dict) else {}
    return args.on_op in (None, request.get("op")) and args.on_dtype in (None, a.get("dtype"))


def faulty_answer(fault, request):
    if fault in STOPS:
        STOPS[fault]()
    if fault == "garbage":
        print("this line is not JSON {", flush=True)
        return None
    if fault in REGIONS:
        return region_answer(fault, request)
    if fault == "stderr-flood":
        sys.stderr.write(("x" * 1023 + "\n") * (20 * 1024))
        sys.stderr.flush()
    def save(req, result, dtype):
        SAVES[fault](req["out"], result)
        return False  # to the file, never the region

    response = kit.answer(request, nb.evaluate, save if fault in SAVES else tensors.write_output)
    if fault == "wrong-dtype" and response["status"] == "ok":  # name what was written
        response["dtype"] = "f32" if response["dtype"] == "f64" else "f64"
    if fault == "wrong-id" and isinstance(response["id"], int):
        response["id"] += 1000
    return response


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", required=True, choices=KINDS)
    parser.add_argument("--on-op", help="fire only on this op-version id")
    parser.add_argument("--on-dtype", help="fire only when input A has this element type")
    args = parser.parse_args()
    if args.fault == "no-hello":
        sleep_forever()
    greeting = nb.hello()
    if args.fault == "bad-hello":
        greeting["protocol"] = "eltwise-backend/99"

    def respond(request):
        if not matches(args, request):
            return kit.answer(request, nb.evaluate)
        return faulty_answer(args.fault, request)

    kit.serve(respond, greeting)


if __name__ == "__main__":
    main()
