#!/usr/bin/env python3
"""Instructions per call of functions in one callgrind output file, for the instruction counts of
bench/peer_instructions.sh and bench/sweep_instructions.sh: each function's inclusive count
(callgrind_annotate --inclusive=yes) divided by the number of calls to it that callgrind recorded.
Run callgrind with --toggle-collect on those functions (out of line: [[gnu::noinline]]) so that
only their work is counted.

    bench/callgrind_per_call.py [--totals] OUT PATTERN [PATTERN...]

prints one line per PATTERN (a substring of the function's demangled name): the integer
instructions per call, or "nan" when no call matched; with --totals, the inclusive count and the
number of calls instead (two integers; "nan 0" when the function is not in the file)."""
import re
import subprocess
import sys


def calls_to(path, pattern):
    names, calls, current = {}, 0, None
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("cfn="):
                current = names.get(m.group(1), "")
            continue
        if line.startswith("calls=") and current is not None and pattern in current:
            calls += int(line.split("=")[1].split()[0])
    return calls


def inclusive(annotated, pattern):
    for line in annotated.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\(\s*[\d.]+%\)\s+)?[^\s:]*:(.*)$", line)
        if m and pattern in m.group(2):
            return int(m.group(1).replace(",", ""))
    return None


def counts(path, patterns):
    """(inclusive instructions or None, calls) of each pattern's function in one callgrind file."""
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                               capture_output=True, text=True, check=True).stdout
    return [(inclusive(annotated, p), calls_to(path, p)) for p in patterns]


def main():
    args = sys.argv[1:]
    totals = bool(args) and args[0] == "--totals"
    if totals:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    for total, calls in counts(args[0], args[1:]):
        if totals:
            print(f"{total if total is not None else 'nan'} {calls}")
        else:
            print(f"{total / calls:.0f}" if total is not None and calls else "nan")


if __name__ == "__main__":
    main()
