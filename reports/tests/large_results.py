"""Writes a results.jsonl of N cases made from a real one: its case lines repeated, each copy
with its own id (`:copy=K` appended), so that the status mix, failure detail and line sizes are
those of a real run. Used to measure `report` on runs of a million cases.
Usage: large_results.py SOURCE.jsonl N OUT.jsonl"""
import json
import sys


def main(source, n, out):
    with open(source) as f:
        run_line, *cases = f.read().splitlines()
    if not cases:
        sys.exit("%s has no case lines" % source)
    with open(out, "w") as f:
        f.write(run_line + "\n")
        for k in range(n):
            line = json.loads(cases[k % len(cases)])
            line["case"] += ":copy=%d" % (k // len(cases))
            f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
