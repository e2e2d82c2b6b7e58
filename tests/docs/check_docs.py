#!/usr/bin/env python3
"""Checks of the README and the design notes against the repository (ctest: docs.*).

    check_docs.py layout    every top-level folder under git is in the README's Layout block, and
                            every folder one level down of include/obliq, include/obliq/core, src/
                            and tests/ is named in docs/design.md's "Layout of the repository"
    check_docs.py snippets  every README code block under '<!-- snippet: FILE -->' is taken from
                            FILE: each of its lines, in order, is a line of FILE (output lines of a
                            command, after the first line, excepted in shell blocks)

Exit 0: passed; 1: a check failed (what is missing is printed); 77: skipped (not a git checkout)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def tracked_folders():
    """Folders holding tracked files, as paths relative to the root (None: not a git checkout)."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    folders = set()
    for f in out.decode().split("\0"):
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]))
    return {f for f in folders if not f.split("/")[0].startswith(".")}


def block_after(text, marker, name):
    """The first fenced block after the line `marker`."""
    m = re.search(re.escape(marker) + r"\n.*?```[^\n]*\n(.*?)\n```", text, re.S)
    if not m:
        raise SystemExit(f"check_docs: {name} has no code block after '{marker}'")
    return m.group(1)


def layout_paths(block):
    """The folder paths of an indented layout block: a line's leading names ("core/, reference/")
    are folders inside the nearest less indented line's folder."""
    paths, stack = set(), []  # stack: (indent, path) of the enclosing folders
    for line in block.splitlines():
        m = re.match(r"( *)((?:[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/(?:, )?)+)", line)
        if not m:
            continue
        indent = len(m.group(1))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        names = [n.rstrip("/") for n in m.group(2).split(", ") if n]
        base = stack[-1][1] + "/" if stack else ""
        for n in names:
            paths.add(base + n)
        stack.append((indent, base + names[0]))
    return paths


def check_layout():
    folders = tracked_folders()
    if folders is None:
        print("check_docs: not a git checkout, layout check skipped")
        return 77
    failed = []
    readme = block_after(read("README.md"), "<!-- layout: top-level folders (tests/docs checks that each one is listed) -->",
                         "README.md")
    listed = {line.split()[0].rstrip("/") for line in readme.splitlines() if line.strip()}
    for f in sorted(x for x in folders if "/" not in x):
        if f not in listed:
            failed.append(f"README.md's Layout block does not list the top-level folder {f}/")
    for f in sorted(listed - {x for x in folders if "/" not in x}):
        failed.append(f"README.md's Layout block lists {f}/, which is not a folder of the repository")
    design = read("docs/design.md")
    i = design.find("## Layout of the repository")
    if i < 0:
        failed.append('docs/design.md has no "## Layout of the repository" section')
    else:
        block = block_after(design[i:], "## Layout of the repository", "docs/design.md")
        named = layout_paths(block)
        for parent in ("include/obliq", "include/obliq/core", "src", "tests"):
            for f in sorted(x for x in folders if x.startswith(parent + "/") and x.count("/") == parent.count("/") + 1):
                if f not in named:
                    failed.append(f"docs/design.md's Layout block does not name {f}/")
    for line in failed:
        print("check_docs:", line)
    print(f"check_docs: layout: {len(folders)} tracked folders, {'FAILED' if failed else 'every one listed'}")
    return 1 if failed else 0


def check_snippets():
    readme = read("README.md")
    failed, count = [], 0
    for m in re.finditer(r"<!-- snippet: (\S+) -->\n```(\w*)\n(.*?)\n```", readme, re.S):
        path, lang, body = m.group(1), m.group(2), m.group(3).splitlines()
        count += 1
        if not os.path.isfile(os.path.join(ROOT, path)):
            failed.append(f"README snippet from {path}: no such file")
            continue
        source = [l.rstrip() for l in read(path).splitlines()]
        lines = body
        if lang == "sh":  # a command and its output: the command reads the file, the output is not in it
            command = lines[0]
            if path not in command:
                failed.append(f"README snippet from {path}: its command does not use the file ({command})")
            continue
        at = 0
        for line in lines:
            line = line.rstrip()
            while at < len(source) and source[at].strip() != line.strip():
                at += 1
            if at == len(source):
                failed.append(f"README snippet from {path}: line not found in the file (in order): {line}")
                break
            at += 1
    if count == 0:
        failed.append("README.md has no '<!-- snippet: FILE -->' blocks")
    for line in failed:
        print("check_docs:", line)
    print(f"check_docs: snippets: {count} checked, {'FAILED' if failed else 'each taken from its file'}")
    return 1 if failed else 0


if __name__ == "__main__":
    checks = {"layout": check_layout, "snippets": check_snippets}
    if len(sys.argv) != 2 or sys.argv[1] not in checks:
        print("usage: check_docs.py layout|snippets", file=sys.stderr)
        sys.exit(2)
    sys.exit(checks[sys.argv[1]]())
