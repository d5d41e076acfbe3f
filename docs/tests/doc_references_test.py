#!/usr/bin/python3
"""Checks the references between the repository's documents and comments.

Usage: doc_references_test.py REPO_ROOT

Fails (exit 1, one line per problem as FILE:LINE: message) when a file of the repository
  (a) points outside the repository, at the folder the documents were once drafted in;
  (b) cites a section of docs/SEMANTICS.md or backends/PROTOCOL.md that the document lacks
      ("docs/SEMANTICS.md section 2.5", "docs/SEMANTICS.md sections 1 and 4", "... §2",
      "backends/PROTOCOL.md sections 2-4"; a citation may wrap onto a comment's next line), or
      names the semantics document without its folder;
  (c) is a .md file with a relative link [text](path) whose target does not exist, or whose
      #anchor names no heading of the target .md file.
The files are those git lists for REPO_ROOT (tracked ones, and new ones not ignored), minus
build/, node_modules/, .venv/, .arm64/ and reports/out/. Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

SEMANTICS = "docs/SEMANTICS.md"
PROTOCOL = "backends/PROTOCOL.md"

# (a) Built from pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join(re.escape(p) for p in (
    ".." + "/shared", "/work" + "/shared", "shared" + "/SEMANTICS", "shared" + "/PROTOCOL")))

# (b) A citation: the document's name, optionally the rest of a markdown link or a closing
# backtick, then (across a line break and a comment leader) the section keyword and numbers.
NUMBER = r"\d+(?:\.\d+)*"
LEADER = r"[\s/#*;>]*"  # spaces, line breaks and comment leaders between the numbers
NUMBERS = NUMBER + r"(?:" + LEADER + r"(?:,|-|–|and|or|to)" + LEADER + NUMBER + r")*"
GAP = r"[`\]]?(?:\([^)\s]*\))?[\s/#*;>-]*?"
CITATION = {
    SEMANTICS: re.compile(r"SEMANTICS(?:\.md)?" + GAP +
                          r"(?:(?:sections?|§)\s*(" + NUMBERS + r")|(\d+)(?=[:;,)]))"),
    PROTOCOL: re.compile(r"PROTOCOL\.md" + GAP + r"(?:sections?|§)\s*(" + NUMBERS + r")"),
}
BARE_SEMANTICS = re.compile(r"(?<![\w/.])SEMANTICS\.md")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)[.\s]")

# (c) Inline links and images; fenced code blocks and code spans are skipped.
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).*?\1")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...

EXCLUDED_DIRS = {"build", "node_modules", ".venv", ".arm64"}


def listed_files(root):
    """git's list of the repository's files; every file under root when it is no checkout."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        return out.decode("utf-8", "surrogateescape").split("\0")
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git" and d not in EXCLUDED_DIRS]
            rel = os.path.relpath(top, root)
            paths += [n if rel == "." else rel.replace(os.sep, "/") + "/" + n for n in names]
        return paths


def repo_files(root):
    files = []
    for path in sorted(set(p for p in listed_files(root) if p)):
        parts = path.split("/")
        if EXCLUDED_DIRS.intersection(parts[:-1]) or path.startswith("reports/out/"):
            continue
        if os.path.isfile(os.path.join(root, path)):  # skip deleted and submodule entries
            files.append(path)
    return files


def read_text(root, path):
    with open(os.path.join(root, path), "rb") as f:
        data = f.read()
    if b"\0" in data[:8192]:
        return None  # binary
    return data.decode("utf-8", "replace")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(text):
    """(section numbers, anchors) of a markdown text, outside fenced code."""
    numbers, anchors, seen = set(), set(), {}
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if not m:
            continue
        title = m.group(2)
        n = SECTION_NUMBER.match(title)
        if n:
            numbers.add(n.group(1))
        base = slug(title)
        count = seen.get(base, 0)
        seen[base] = count + 1
        anchors.add(base if count == 0 else "%s-%d" % (base, count))
    return numbers, anchors


def cited_numbers(group):
    """'1 and 4' -> [1, 4]; '2-4' -> [2, 3, 4]; '2.5' -> ['2.5']."""
    tokens = re.findall(NUMBER + r"|-|–", group)
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t in "-–":
            i += 1
            continue
        if i + 2 < len(tokens) and tokens[i + 1] in "-–" and "." not in t + tokens[i + 2]:
            out.extend(str(k) for k in range(int(t), int(tokens[i + 2]) + 1))
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check_citations(path, text, sections, problems):
    for document, pattern in CITATION.items():
        for m in pattern.finditer(text):
            group = next((g for g in m.groups() if g), None)
            if not group:
                continue
            for n in cited_numbers(group):
                if n not in sections[document]:
                    problems.append("%s:%d: cites %s section %s, which %s does not have"
                                    % (path, line_of(text, m.start()), document, n, document))
    for m in BARE_SEMANTICS.finditer(text):
        problems.append("%s:%d: names the semantics document without its folder: write %s"
                        % (path, line_of(text, m.start()), SEMANTICS))


def check_links(root, path, text, anchor_cache, problems):
    fenced = False
    own = None
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            target = m.group(1)
            if EXTERNAL.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            file_part = file_part.split("?", 1)[0]
            if not file_part:  # an anchor in this file
                if own is None:
                    own = headings(text)[1]
                if anchor and anchor.lower() not in own:
                    problems.append("%s:%d: link to #%s: no such heading in this file"
                                    % (path, number, anchor))
                continue
            if file_part.startswith("/"):
                resolved = os.path.normpath(os.path.join(root, file_part.lstrip("/")))
            else:
                resolved = os.path.normpath(
                    os.path.join(root, os.path.dirname(path), file_part))
            if not os.path.exists(resolved):
                problems.append("%s:%d: link target %s does not exist" % (path, number, target))
                continue
            if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
                if resolved not in anchor_cache:
                    with open(resolved, encoding="utf-8", errors="replace") as f:
                        anchor_cache[resolved] = headings(f.read())[1]
                if anchor.lower() not in anchor_cache[resolved]:
                    problems.append("%s:%d: link %s: no heading with that anchor"
                                    % (path, number, target))


def main(argv):
    if len(argv) != 2:
        print("usage: doc_references_test.py REPO_ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    problems = []
    sections = {}
    for document in (SEMANTICS, PROTOCOL):
        full = os.path.join(root, document)
        if not os.path.isfile(full):
            problems.append("%s: missing" % document)
            sections[document] = set()
            continue
        with open(full, encoding="utf-8") as f:
            sections[document] = headings(f.read())[0]

    files = repo_files(root)
    anchor_cache = {}
    for path in files:
        text = read_text(root, path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            m = OUTSIDE.search(line)
            if m:
                problems.append("%s:%d: points outside the repository (%s)"
                                % (path, number, m.group(0)))
        check_citations(path, text, sections, problems)
        if path.endswith(".md"):
            check_links(root, path, text, anchor_cache, problems)

    for p in problems:
        print(p)
    if problems:
        print("doc_references_test: %d problem(s) in %d files" % (len(problems), len(files)))
        return 1
    print("doc_references_test: %d files, references OK" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
