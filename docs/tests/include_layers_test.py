#!/usr/bin/env python3
"""Folders are layers: a C++ file includes only from its own folder or from a lower layer.

Run with Debian's /usr/bin/python3 (stdlib only): include_layers_test.py REPO_ROOT.
A folder's tests (its tests/ subfolder) may also include the other folders of its own layer,
which they compare it with (optimized/tests includes reference/). Fails naming file:line and both layers for every include that goes up or sideways, and for a
folder holding C++ code that the table below does not place.
"""
import pathlib
import re
import sys

# Lower numbers are lower layers. Folders on one layer do not include each other.
LAYERS = {
    "core": 0,
    "reference": 1, "optimized": 1, "oracle": 1, "platform": 1,
    "generators": 2, "comparison": 2, "io": 2, "behaviours": 2, "plugins": 2,
    "results": 3, "spec_cases": 3,
    "backends": 4, "case_sources": 4, "profiles": 4,
    "reports": 5, "judging": 5, "backend_host": 5,
    "runner": 6, "triage": 6, "spec_check": 6,
    # export plans its cases as `run` does, so it sits above runner/.
    "node_export": 7,
    "validator": 8,
    # Tests, tools and fuzz targets sit above what they exercise.
    "property_tests": 9, "bench": 9, "fuzz": 9, "examples": 9, "test_backends": 9,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/')
SKIP = {"build", ".git", ".venv", ".arm64", "node_modules"}


def sources(root):
    for path in sorted(root.rglob("*")):
        if path.suffix in (".cpp", ".hpp", ".h", ".cc") and not SKIP & set(path.parts):
            yield path


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    problems = []
    for path in sources(root):
        folder = path.relative_to(root).parts[0]
        if folder not in LAYERS:
            problems.append(f"{path.relative_to(root)}: folder '{folder}' has no layer")
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match or match.group(1) == folder or not (root / match.group(1)).is_dir():
                continue
            target = match.group(1)
            if target not in LAYERS:
                problems.append(f"{path.relative_to(root)}:{number}: includes '{target}/', "
                                "a folder with no layer")
            elif LAYERS[target] > LAYERS[folder] or (
                    LAYERS[target] == LAYERS[folder] and "tests" not in path.parts):
                way = "up" if LAYERS[target] > LAYERS[folder] else "sideways"
                problems.append(f"{path.relative_to(root)}:{number}: {folder} (layer "
                                f"{LAYERS[folder]}) includes {target}/ (layer {LAYERS[target]}): "
                                f"an include that goes {way}")
    for p in problems:
        print(p)
    print(f"{len(problems)} include(s) against the layers" if problems else
          "every include goes down a layer or stays in its folder")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
