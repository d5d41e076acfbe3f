#!/usr/bin/python3
"""The adapter kit's numpy example as a compiling backend would look, for the validator's tests of
PROTOCOL.md section 9, item 19: its hello announces a compile latency of --latency seconds, and
the first request of each (op version, types, ranks) "compiles" for --compile-seconds (a sleep)
and reports one compilation; later requests of the same key reuse it.

Usage: compiling_backend.py [--latency S] [--compile-seconds S]
"""
import argparse
import time

import eltwise_adapter_kit as kit
from eltwise_adapter_kit import example as nb  # the one copy of the backend logic


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=3)
    parser.add_argument("--compile-seconds", type=float, default=1.5)
    args = parser.parse_args()
    compiled = kit.ModelCache(compiles=True)

    def evaluate(request):
        a, b = request["a"], request["b"]
        key = (request["op"], a["dtype"], len(a["shape"]), b["dtype"], len(b["shape"]))
        compiled.get(key, lambda: time.sleep(args.compile_seconds))
        return nb.evaluate(request)

    greeting = nb.hello()
    greeting["compile"] = {"compiler": "sleep", "target": "numpy", "shapes": "dynamic",
                           "latency_seconds": args.latency}
    kit.serve(lambda request: kit.answer(request, evaluate), greeting)


if __name__ == "__main__":
    main()
