#!/usr/bin/python3
"""The numpy example backend with one fault, for the validator's integration tests.

Usage: fault_backend.py --fault KIND [--on-op ID] [--on-dtype T]

It answers like backends/examples/numpy_backend.py, except on the requests that match the
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import numpy_backend as nb  # noqa: E402  (the one copy of the backend logic)

import numpy as np  # noqa: E402


def sleep_forever():
    while True:
        time.sleep(3600)


def truncate_output(path, result):
    written = nb.save_output(path, result)
    os.truncate(path, os.path.getsize(path) // 2)
    return written


def other_dtype(result):
    return result.astype(np.float32 if result.dtype == np.float64 else np.float64)


# Faults that end or stall the process before it answers.
STOPS = {
    "crash-abrt": os.abort,
    "crash-segv": lambda: os.kill(os.getpid(), signal.SIGSEGV),
    "exit": lambda: sys.exit(3),
    "hang": sleep_forever,
}
# Faults in how an `ok` answer's output is written: fn(path, result) -> what was written.
SAVES = {
    "no-output": lambda path, result: result,
    "truncated": truncate_output,
    "wrong-shape": lambda path, result: nb.save_output(path, result[..., np.newaxis]),
    "wrong-dtype": lambda path, result: nb.save_output(path, other_dtype(result)),
}
ANSWERS = ["garbage", "wrong-id", "stderr-flood"]


def region_overflow(request, result):
    """A header claiming one more element than the region holds after it."""
    region = nb.REGION.get(request["out_region"])
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
    nb.write_output(request, result)


# Faults in the shared region: fn(request, result) writes (or not); the answer says in_region.
REGIONS = {
    "region-no-output": lambda request, result: None,
    "region-overflow": region_overflow,
    "region-shrink": region_shrink,
}
KINDS = sorted([*STOPS, *SAVES, *ANSWERS, *REGIONS, "bad-hello", "no-hello"])


def region_answer(fault, request):
    def evaluate_and_write(req):
        result = np.asarray(nb.evaluate(req))
        REGIONS[fault](req, result)
        return result

    response = nb.answer(request, evaluate=evaluate_and_write, save=lambda path, result: result)
    if response.get("status") == "ok":
        response["in_region"] = True
    return response


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
    response = nb.answer(request, save=SAVES.get(fault, nb.save_output))
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
            return nb.answer(request)
        return faulty_answer(args.fault, request)

    nb.serve(respond, greeting)


if __name__ == "__main__":
    main()
