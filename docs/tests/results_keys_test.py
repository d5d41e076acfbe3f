#!/usr/bin/env python3
"""No code outside results/ spells a key of results.jsonl: results/results_line.cpp maps the lines
to structs, and everything else reads and fills the structs.

Run with Debian's /usr/bin/python3 (stdlib only): results_keys_test.py REPO_ROOT.
The keys are those results_line.cpp maps. In the folders that handle results lines (runner/,
validator/, reports/, fuzz/), a JSON lookup of one (`["k"]`, `.value("k"`, `.contains("k")`,
`.at("k")`, `.erase("k")`) fails, and so, in runner/ and fuzz/, does a JSON member written as
`{"k", ...}`: reports/ (eltwise-report-summary/1) and validator/ (`list --json`) write formats of
their own, which share some names; list_command.cpp reads its own `list --json` back.
Tests are left out: their fixtures write raw lines, malformed ones on purpose. Fails naming
file:line and the key.
"""
import pathlib
import re
import sys

MAPPING = "results/results_line.cpp"
FOLDERS = ("runner", "validator", "reports", "fuzz")
WRITERS = ("runner", "fuzz")  # reports/ and `list --json` write formats of their own
# Writes and reads back `list --backends --json`, whose entries have a "name" and a "version" too.
OWN_FORMAT = {"validator/list_command.cpp"}
KEY_IN_MAPPING = re.compile(r'(?:\{|\[|\(|get|need|count|counts)\s*\(?\s*"([a-z_]+)"')
LOOKUP = re.compile(r'(?:\[|\.value\(|\.contains\(|\.at\(|\.erase\()\s*"([a-z_]+)"')
MEMBER = re.compile(r'\{\s*"([a-z_]+)"\s*,')


def keys(root):
    found = set(KEY_IN_MAPPING.findall((root / MAPPING).read_text()))
    if len(found) < 40:
        sys.exit(f"{MAPPING}: found only {len(found)} keys; has the mapping moved?")
    return found


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    known = keys(root)
    problems = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.[ch]pp")):
            relative = path.relative_to(root)
            if "tests" in relative.parts or relative.as_posix() in OWN_FORMAT:
                continue
            patterns = [LOOKUP] + ([MEMBER] if folder in WRITERS else [])
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                for pattern in patterns:
                    for key in pattern.findall(line):
                        if key in known:
                            problems.append(f"{path.relative_to(root)}:{number}: spells the "
                                            f"results key \"{key}\" (use results/results_line.hpp)")
    for p in problems:
        print(p)
    print(f"{len(problems)} results key(s) spelled outside results/" if problems else
          f"no results key spelled outside results/ ({len(known)} keys)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
