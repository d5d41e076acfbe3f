#!/usr/bin/python3
"""Checks that the op-version table has one source for every language: core/op_table.cpp, as
`eltwise-validate list --json` prints it and core/op_table.json holds it.

Usage: ELTWISE_VALIDATE=build/release/bin/eltwise-validate op_table_test.py REPO_ROOT

Fails (exit 1, one line per problem) when
  (a) core/op_table.json differs from `$ELTWISE_VALIDATE list --json` (compared as parsed JSON):
      it names the op versions missing or extra, and per op version the element types missing
      or extra and any other field that differs;
  (b) a .py, .mjs or .js file of the repository spells out a copy of the table (FILE:LINE):
      a list, tuple or set literal with 3 or more of the table's element type names; a literal
      (list, tuple, set; dict or object keys) with 2 or more op-version ids; or a string that
      builds op-version ids from pieces (the op name or version as a format placeholder).
      NOT_COPIES lists the few literals that are something else, each with its reason;
  (c) the Python helper (the adapter kit's eltwise_adapter_kit/op_table.py, backends/kit/python)
      or the Node one (backends/kit/node/op_table.mjs) cannot load the table, from its default path or from ELTWISE_OP_TABLE, or they do not
      give exactly the table's op versions and element types (the Python kit's default path is
      its own copy, PYTHON_KIT_TABLE; the Node kit's is a symlink to core/op_table.json);
  (d) the Python kit's copy, backends/kit/python/eltwise_adapter_kit/op_table.json, is not a
      file byte for byte equal to core/op_table.json. It is a file, not a symlink, so that a
      plain copy of the kit (`cp -r`) installs with its table; write it with
      `cp core/op_table.json backends/kit/python/eltwise_adapter_kit/op_table.json`.
Files: those git lists (tracked, and new ones not ignored), minus node_modules/, .venv/, .arm64/, build/
and fuzz/corpus/. ELTWISE_NODE names node (default: node on PATH). Python 3 standard library.
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TABLE = "core/op_table.json"
PYTHON_KIT = "backends/kit/python"
NODE_KIT = "backends/kit/node"
PYTHON_KIT_TABLE = f"{PYTHON_KIT}/eltwise_adapter_kit/op_table.json"
HELPER_FILES = {"op_table.py": f"{PYTHON_KIT}/eltwise_adapter_kit/op_table.py",
                "op_table.mjs": f"{NODE_KIT}/op_table.mjs"}
EXCLUDED_DIRS = {"build", "node_modules", ".venv", ".arm64", ".git"}
EXCLUDED_PREFIXES = ("fuzz/corpus/",)
MIN_TYPES, MIN_IDS = 3, 2

# Literals that hold type names or op ids but are no copy of the table: (file, the variable or
# function they belong to) -> why. A stale entry is a failure too, so that the list stays short.
NOT_COPIES = {
    ("backends/adapters/litert/litert_backend.py", "KERNEL_TYPES"):
        "the types LiteRT's builtin kernels compute (measured); claims() intersects the table",
    ("backends/adapters/litert/litert_backend.py", "QUANTIZED"):
        "LiteRT's quantized-only kernels, named in its `unsupported` messages",
    ("fuzz/seed_corpus.py", "TYPES"):
        "core::kElementTypes (boolean too) in the order of the fuzz targets' selector byte",
    ("fuzz/seed_corpus.py", "ops"):
        "a sample hello message, seed of the protocol fuzzer",
    ("validator/tests/exhaustive16_test.py", "SPEC_FUNCTIONS"):
        "the test's expectation, written from the specs and not from the table on purpose",
}

# A string that builds op ids: "onnx." or "openvino." followed by a %-format or {} / ${}
# placeholder, possibly after part of the name ("...Mul-" + a version).
ASSEMBLED_ID = re.compile(r"\b(?:onnx|openvino)\.[\w-]*(?:%[sdr(]|\$?\{)")


# (a) ------------------------------------------------------------------------------------------

def check_table(root, validate, problems):
    try:
        proc = subprocess.run([validate, "list", "--json"], capture_output=True, text=True,
                              timeout=60)
        expected = json.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        problems.append(f"{validate} list --json: {e}")
        return
    if expected is None:
        problems.append(f"{validate} list --json: exit {proc.returncode}: {proc.stderr.strip()}")
        return
    try:
        with open(os.path.join(root, TABLE), encoding="utf-8") as f:
            checked_in = json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{TABLE}: cannot be read: {e}")
        return
    if checked_in == expected:
        return
    before = len(problems)
    want = {op["id"]: op for op in expected}
    have = {op["id"]: op for op in checked_in}
    for op in want.keys() - have.keys():
        problems.append(f"{TABLE}: lacks op version {op}, which `list --json` prints")
    for op in have.keys() - want.keys():
        problems.append(f"{TABLE}: has op version {op}, which `list --json` does not print")
    for op in want.keys() & have.keys():
        w, h = want[op], have[op]
        missing = [t for t in w["element_types"] if t not in h["element_types"]]
        extra = [t for t in h["element_types"] if t not in w["element_types"]]
        if missing:
            problems.append(f"{TABLE}: {op}: element types missing: {' '.join(missing)}")
        if extra:
            problems.append(f"{TABLE}: {op}: element types extra: {' '.join(extra)}")
        if not missing and not extra and w["element_types"] != h["element_types"]:
            problems.append(f"{TABLE}: {op}: element types in another order")
        for key in sorted((w.keys() | h.keys()) - {"element_types"}):
            if w.get(key) != h.get(key):
                problems.append(f"{TABLE}: {op}: {key} is {json.dumps(h.get(key))}, "
                                f"`list --json` says {json.dumps(w.get(key))}")
    if len(problems) == before:
        problems.append(f"{TABLE}: the op versions are in another order than `list --json`'s")
    problems.append(f"{TABLE}: regenerate it: {validate} list --json > {TABLE}")


# (b) ------------------------------------------------------------------------------------------

def listed_files(root):
    """git's list of the repository's files; every file under root when it is no checkout."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        return sorted(set(out.decode("utf-8", "surrogateescape").split("\0")) - {""})
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in EXCLUDED_DIRS]
            paths += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return sorted(paths)


def source_files(root):
    for path in listed_files(root):
        parts = path.split("/")
        if (path.endswith((".py", ".mjs", ".js")) and not EXCLUDED_DIRS.intersection(parts[:-1])
                and not path.startswith(EXCLUDED_PREFIXES)
                and os.path.isfile(os.path.join(root, path))):
            yield path


def copy_kind(strings, types, ids, with_types=True):
    """Why these string literals, the elements (or keys) of one literal, copy the table."""
    named_types = [s for s in strings if s in types]
    named_ids = [s for s in strings if s in ids]
    if with_types and len(named_types) >= MIN_TYPES:
        return "element types " + " ".join(named_types)
    if len(named_ids) >= MIN_IDS:
        return "op versions " + " ".join(named_ids)
    return None


def python_owner(node, parents):
    """The variable (or else function, class) a literal belongs to; '' at module level."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Assign):
            return ",".join(ast.unparse(t) for t in node.targets)
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            return ast.unparse(node.target)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return node.name
    return ""


def python_copies(text, types, ids):
    """(line, owner, what) of each copy in Python source."""
    tree = ast.parse(text)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            what = copy_kind([e.value for e in node.elts if isinstance(e, ast.Constant)
                              and isinstance(e.value, str)], types, ids)
        elif isinstance(node, ast.Dict):  # keys only: type name -> library type is a mapping
            what = copy_kind([k.value for k in node.keys if isinstance(k, ast.Constant)
                              and isinstance(k.value, str)], types, ids, with_types=False)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if ASSEMBLED_ID.search(node.value):
                what = f"op ids built from the string {node.value!r}"
        elif isinstance(node, ast.JoinedStr):
            for part, following in zip(node.values, node.values[1:]):
                if (isinstance(part, ast.Constant) and isinstance(following, ast.FormattedValue)
                        and re.search(r"\b(?:onnx|openvino)\.[\w-]*$", part.value)):
                    what = f"op ids built from an f-string on {part.value!r}"
        if what:
            found.append((node.lineno, python_owner(node, parents), what))
    return found


JS_STRING = re.compile(r"""(['"])((?:\\.|(?!\1).)*)\1""")
JS_DECLARATION = re.compile(r"\b(?:const|let|var|function)\s+(\w+)")


def js_copies(text, types, ids):
    """(line, owner, what) of each copy in JavaScript source: innermost [...] and {...}."""
    found = []

    def add(offset, what):
        declarations = JS_DECLARATION.findall(text, 0, offset)
        found.append((text.count("\n", 0, offset) + 1, declarations[-1] if declarations else "",
                      what))

    for m in re.finditer(r"\[[^\[\]]*\]", text):
        what = copy_kind([s for _, s in JS_STRING.findall(m.group(0))], types, ids)
        if what:
            add(m.start(), what)
    for m in re.finditer(r"\{[^{}]*\}", text):
        what = copy_kind([s for _, s in JS_STRING.findall(m.group(0))], types, ids,
                         with_types=False)
        if what:
            add(m.start(), what)
    for m in ASSEMBLED_ID.finditer(text):
        add(m.start(), f"op ids built from {m.group(0)!r}...")
    return found


def check_copies(root, table, problems):
    types = {t for op in table for t in op["element_types"]}
    ids = {op["id"] for op in table}
    used = set()
    for path in source_files(root):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            copies = python_copies(text, types, ids) if path.endswith(".py") else \
                js_copies(text, types, ids)
        except SyntaxError as e:
            problems.append(f"{path}:{e.lineno}: cannot be parsed to look for copies: {e.msg}")
            continue
        for line, owner, what in sorted(set(copies)):
            if (path, owner) in NOT_COPIES:
                used.add((path, owner))
                continue
            problems.append(f"{path}:{line}: {what}{f' in {owner}' if owner else ''}: a re-typed "
                            f"copy of the op-version table; read {TABLE} instead "
                            f"({' or '.join(HELPER_FILES.values())})")
    for path, owner in NOT_COPIES.keys() - used:
        problems.append(f"{path}: NOT_COPIES lists {owner}, which holds no type or op-id list "
                        "(any more): remove the entry")


# (c) ------------------------------------------------------------------------------------------

PYTHON_HELPER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from eltwise_adapter_kit import op_table
print(json.dumps({"path": str(op_table.path()), "types": op_table.ELEMENT_TYPES}))
"""
NODE_HELPER = """
const { ELEMENT_TYPES, tablePath } = await import(process.argv[1]);
console.log(JSON.stringify({ path: tablePath(), types: ELEMENT_TYPES }));
"""


def run_helper(name, cmd, env):
    """The helper's (path, types), or the reason it failed."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
        if proc.returncode != 0:
            lines = proc.stderr.strip().splitlines() or [""]
            error = next((line for line in reversed(lines)
                          if re.match(r"\s*\w*(Error|Exception)\b", line)), lines[-1])
            return f"{name} exits {proc.returncode}: {error.strip()}"
        return json.loads(proc.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        return f"{name}: {e}"


def check_helpers(root, table, problems):
    node = os.environ.get("ELTWISE_NODE") or shutil.which("node")
    helpers = {"op_table.py": [sys.executable, "-c", PYTHON_HELPER,
                               os.path.join(root, PYTHON_KIT)]}
    if node:
        helpers["op_table.mjs"] = [node, "--input-type=module", "-e", NODE_HELPER,
                                   Path(root, NODE_KIT, "op_table.mjs").resolve().as_uri()]
    else:
        problems.append(f"{NODE_KIT}/op_table.mjs: not checked: no node (set ELTWISE_NODE)")
    env = {k: v for k, v in os.environ.items() if k != "ELTWISE_OP_TABLE"}
    with tempfile.TemporaryDirectory() as scratch:
        # The override: another file, here holding the table's first op version only.
        other = os.path.join(scratch, "other_table.json")
        with open(other, "w", encoding="utf-8") as f:
            json.dump(table[:1], f)
        defaults = {"op_table.py": os.path.join(root, PYTHON_KIT_TABLE),
                    "op_table.mjs": os.path.join(root, TABLE)}
        for label, files, rows, extra in (("default path", defaults, table, {}),
                                          ("ELTWISE_OP_TABLE", dict.fromkeys(defaults, other),
                                           table[:1], {"ELTWISE_OP_TABLE": other})):
            want = {op["id"]: op["element_types"] for op in rows}
            for name, cmd in helpers.items():
                file = files[name]
                got = run_helper(name, cmd, {**env, **extra})
                where = f"{HELPER_FILES[name]} ({label})"
                if isinstance(got, str):
                    problems.append(f"{where}: cannot load the table: {got}")
                elif os.path.realpath(got["path"]) != os.path.realpath(file):
                    problems.append(f"{where}: reads {got['path']}, not {file}")
                elif list(got["types"].items()) != list(want.items()):
                    problems.append(f"{where}: op versions and types differ from {file}: "
                                    f"{json.dumps(got['types'])}")


# (d) ------------------------------------------------------------------------------------------

def check_kit_copy(root, problems):
    copy, source = Path(root, PYTHON_KIT_TABLE), Path(root, TABLE)
    fix = f"write it with `cp {TABLE} {PYTHON_KIT_TABLE}`"
    if copy.is_symlink() or not copy.is_file():
        problems.append(f"{PYTHON_KIT_TABLE}: not a file (a copy of the kit would lose it): {fix}")
    elif copy.read_bytes() != source.read_bytes():
        problems.append(f"{PYTHON_KIT_TABLE}: differs from {TABLE}: {fix}")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    validate = os.environ.get("ELTWISE_VALIDATE")
    problems = []
    if validate:
        check_table(root, validate, problems)
    else:
        problems.append("ELTWISE_VALIDATE is not set: (a) needs the eltwise-validate binary")
    try:
        with open(os.path.join(root, TABLE), encoding="utf-8") as f:
            table = json.load(f)
    except (OSError, ValueError) as e:
        table = None
        problems.append(f"{TABLE}: cannot be read, (b) and (c) not run: {e}")
    if table is not None:
        check_copies(root, table, problems)
        check_helpers(root, table, problems)
        check_kit_copy(root, problems)
    for problem in problems:
        print(f"op_table_test: {problem}")
    print(f"op_table_test: {len(problems)} problem(s)" if problems else
          "op_table_test: ok: core/op_table.json is `list --json`, no re-typed copies, both "
          "helpers load it, the Python kit's copy equals it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
