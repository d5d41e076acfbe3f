#!/usr/bin/python3
"""Checks that the documents name only mismatch categories that exist, and that every category
is documented: the one table is comparison/category.hpp, read as `eltwise-validate list
--categories` prints it (one name a line).

Usage: ELTWISE_VALIDATE=build/release/bin/eltwise-validate categories_test.py REPO_ROOT

Fails (exit 1, one line per problem, FILE:LINE and the name) when
  (a) a document names a category that is not in the table;
  (b) a category of the table is not a row of the table in backends/PROTOCOL.md section 11.
Documents: backends/PROTOCOL.md, README.md, docs/*.md, backends/adapters/*/README.md,
docs/findings/*.md; report code: reports/report_page.html and the .cpp/.hpp files of reports/
(its tests/ left out: their fixtures may be wrong on purpose).

A document names a category (a word: lower-case letters, digits and `_`) where
  1. section 11: the first cell of a row of the table under "## 11.", backticked: `nan`;
  2. after the word "category" or "categories" (not itself in backticks): the backticked
     spans that follow it, with only spaces, commas, "(", ":", "and", "or" between them, each
     word of each span: category `shape` (or `dtype`), categories (`nan signed_zero`, `value`);
  3. a FAILED list: in a finding's "**Category:**" field (that bullet and its continuation
     lines) and in a cell of a markdown table whose header has a column "category", the items
     right after the word FAILED: first any of spaces, ",", ":", "(", "with", "mismatch
     category", then items separated by spaces, ",", "/", "(", ")", "and", "plus". An item is a
     backticked word, or, in a table cell, a bare word; the list ends at the first other text
     ("FAILED, `subnormal_flush`, and its consequences" names subnormal_flush only);
  4. on a line that mentions "categor": the keys of a backticked JSON object (`{"value": 1}`)
     and the comma-separated items of a `<failure type="...">` attribute;
  5. in report code: a string literal that indexes or looks up something named categor...:
     categories["x"], categories['x'], categories.count("x"), .at("x"), .find("x"), or a
     comparison category == "x" / category === 'x'.
Python 3 standard library only.
"""
import glob
import os
import re
import subprocess
import sys

PROTOCOL = "backends/PROTOCOL.md"
DOC_GLOBS = (PROTOCOL, "README.md", "docs/*.md", "backends/adapters/*/README.md",
             "docs/findings/*.md")
CODE_GLOBS = ("reports/report_page.html", "reports/*.cpp", "reports/*.hpp")

WORD = r"[a-z][a-z0-9_]*"
SPAN = r"`([^`]+)`"
# Rule 2: "category" then backticked spans with only separators between them.
AFTER_WORD = re.compile(r"(?<![`\w])categor(?:y|ies)(?![`\w])((?:[\s,(:]*(?:and\s+|or\s+)?"
                        + SPAN + r")+)")
# Rule 3: the items right after FAILED.
FAILED_LEAD = re.compile(r"\bFAILED(?:[\s,:(]|with\b|mismatch category\b)*")
ITEM_SEP = re.compile(r"(?:[\s,/()]|\band\b|\bplus\b)*")
TICKED_ITEM = re.compile(r"`(" + WORD + r")`")
BARE_ITEM = re.compile(r"(" + WORD + r")\b(?![`.\-])")
# Rule 4.
JSON_SPAN = re.compile(r"`(\{[^`]*\})`")
JSON_KEY = re.compile(r'"(' + WORD + r')"\s*:')
FAILURE_TYPE = re.compile(r'<failure type="([^"]*)"')
# Rule 5.
CODE_LOOKUP = re.compile(r"categor\w*\s*(?:\[\s*|\.(?:count|at|find)\(\s*|={2,3}\s*)"
                         r"""(["'])(""" + WORD + r")\1")
FIELD = re.compile(r"^- \*\*Category:\*\*")


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def section_11(text):
    """(line, name) of each row of section 11's table."""
    start = text.find("\n## 11.")
    if start < 0:
        return []
    end = text.find("\n## ", start + 1)
    found = []
    for m in re.finditer(r"^\| `(" + WORD + r")` \|", text[start:end], re.M):
        found.append((line_of(text, start + m.start(1)), m.group(1)))
    return found


def after_category_word(text):
    for m in AFTER_WORD.finditer(text):
        for span in re.finditer(SPAN, m.group(1)):
            for word in re.split(r"[\s,]+", span.group(1).strip()):
                yield line_of(text, m.start(1) + span.start()), word


def failed_list(text, base, bare):
    """(offset, word) of the items after each FAILED in text (a field or a cell)."""
    for lead in FAILED_LEAD.finditer(text):
        at = lead.end()
        while True:
            m = TICKED_ITEM.match(text, at) or (bare and BARE_ITEM.match(text, at))
            if not m:
                break
            yield base + at, m.group(1)
            at = ITEM_SEP.match(text, m.end()).end()


def findings_fields(lines):
    """(offset of its first line, text) of each "**Category:**" field."""
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 0
    while i < len(lines):
        if FIELD.match(lines[i]):
            j = i + 1
            while j < len(lines) and lines[j].strip() and not lines[j].startswith(("- ", "#")):
                j += 1
            yield offsets[i], "\n".join(lines[i:j])
            i = j
        else:
            i += 1


def category_cells(lines):
    """(line number, cell text) of each cell of a table column headed "category"."""
    column = None
    for number, line in enumerate(lines, 1):
        if not line.startswith("|"):
            column = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if column is None:
            lowered = [c.lower() for c in cells]
            column = lowered.index("category") if "category" in lowered else None
        elif column < len(cells):
            yield number, cells[column]


def named_in_document(text):
    """(line, name) of every category the document names."""
    lines = text.split("\n")
    yield from section_11(text)
    yield from after_category_word(text)
    for offset, field in findings_fields(lines):
        for at, word in failed_list(field, offset, bare=False):
            yield line_of(text, at), word
    for number, cell in category_cells(lines):
        for _, word in failed_list(cell, 0, bare=True):
            yield number, word
    for number, line in enumerate(lines, 1):
        if "categor" not in line.lower():
            continue
        for span in JSON_SPAN.finditer(line):
            for key in JSON_KEY.findall(span.group(1)):
                yield number, key
        for m in FAILURE_TYPE.finditer(line):
            for item in m.group(1).split(","):
                yield number, item.strip()


def named_in_code(text):
    for number, line in enumerate(text.split("\n"), 1):
        for m in CODE_LOOKUP.finditer(line):
            yield number, m.group(2)


def table(validate):
    proc = subprocess.run([validate, "list", "--categories"], capture_output=True, text=True,
                          timeout=60)
    if proc.returncode != 0:
        sys.exit(f"categories_test: {validate} list --categories: exit {proc.returncode}: "
                 f"{proc.stderr.strip()}")
    names = proc.stdout.split()
    if len(names) < 3:
        sys.exit(f"categories_test: {validate} list --categories printed {proc.stdout!r}")
    return names


def files(root, patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            yield os.path.relpath(path, root)


def main(argv):
    if len(argv) != 2 or not os.environ.get("ELTWISE_VALIDATE"):
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    names = table(os.environ["ELTWISE_VALIDATE"])
    problems = []
    checked = 0
    for group, reader in ((DOC_GLOBS, named_in_document), (CODE_GLOBS, named_in_code)):
        for path in files(root, group):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
            for number, name in sorted(set(reader(text))):
                checked += 1
                if name not in names:
                    problems.append(f"{path}:{number}: names the category '{name}', which is "
                                    "not one (`eltwise-validate list --categories`)")
    with open(os.path.join(root, PROTOCOL), encoding="utf-8") as f:
        documented = {name for _, name in section_11(f.read())}
    for name in names:
        if name not in documented:
            problems.append(f"{PROTOCOL}: section 11's table has no row for the category "
                            f"'{name}'")
    for problem in problems:
        print(f"categories_test: {problem}")
    print(f"categories_test: {len(problems)} problem(s)" if problems else
          f"categories_test: ok: {checked} mentions of a category, all in the table of "
          f"{len(names)}, each documented in {PROTOCOL} section 11")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
