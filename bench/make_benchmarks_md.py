#!/usr/bin/env python3
"""Writes docs/benchmarks.md from its template (bench/benchmarks.md.in) and the benchmark runs
kept in bench/results/: the tables are copied from the runs' own output, never typed by hand.

    python3 bench/make_benchmarks_md.py            # writes docs/benchmarks.md
    python3 bench/make_benchmarks_md.py --check    # exit 1 if docs/benchmarks.md is not what it writes

After a new `bench/run_all.sh build > bench/results/run_all-DATE.md`, point the template's
directives at the new file and rerun. Directives, each alone on a line of the template:

    @run FILE                     the run's time, machine and load (its first and last lines)
    @table FILE "SECTION" [K]     the K-th table (from 0) of the section whose '## ' title
                                  starts with SECTION
    @sweep FILE                   the sweep part's lines as one table (us per sample, samples/s)
"""
import argparse
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")


class TemplateError(Exception):
    pass


def read_results(name):
    path = os.path.join(RESULTS, name)
    if not os.path.isfile(path):
        raise TemplateError(f"bench/results/{name} does not exist")
    with open(path) as f:
        return f.read().splitlines()


def section(lines, title, name):
    """The lines of the '## ' section whose title starts with `title`."""
    start = None
    for i, line in enumerate(lines):
        if start is None and line.startswith("## ") and line[3:].startswith(title):
            start = i + 1
        elif start is not None and line.startswith("## "):
            return lines[start:i]
    if start is None:
        raise TemplateError(f'bench/results/{name} has no section "## {title}..."')
    return lines[start:]


def tables(lines):
    out, current = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            out.append(current)
            current = []
    return out


def run_line(lines, name):
    head = next((l for l in lines if l.startswith("# obliq benchmarks:")), None)
    done = next((l for l in lines if l.startswith("# done:")), None)
    if head is None or done is None:
        raise TemplateError(f"bench/results/{name} lacks run_all.sh's '# obliq benchmarks:' / '# done:' lines")
    m = re.match(r"# obliq benchmarks: (\S+), (\S+), (\d+) cores, load ([\d. ]+?), commit", head)
    d = re.match(r"# done: (\S+), load ([\d. ]+)", done)
    if not m or not d:
        raise TemplateError(f"bench/results/{name}: unexpected header or footer line")
    # The commit is development history (docs/development.md), not part of the user document.
    return (f"Run of `bench/run_all.sh` from {m.group(1)} to {d.group(1)} on {m.group(3)} {m.group(2)} cores "
            f"(1-minute load average {m.group(4).split()[0]} at the start, {d.group(2).split()[0]} at the end); "
            f"its whole output: [`bench/results/{name}`](../bench/results/{name}).")


def sweep_table(lines, name):
    body = section(lines, "Sweep throughput", name)
    cpu = {}  # (kind, study) -> main-thread CPU us per sample, one thread
    for line in body:
        m = re.match(r"BM_(\w+)/study:(\d)/threads:1/\S+ .*main-thread CPU ([\d.]+) us/sample", line)
        if m:
            cpu[(m.group(1), int(m.group(2)))] = float(m.group(3))
    rates, study = {}, None
    for line in body:
        m = re.match(r"== (\w+) \(\d+ samples\)", line)
        if m:
            study = m.group(1)
            continue
        m = re.match(r"(.*): (\d+) samples/s", line)
        if m and study:
            rates.setdefault(study, {})[m.group(1).strip()] = int(m.group(2))
    studies = list(rates)
    if len(studies) != 2 or len(cpu) < 6:
        raise TemplateError(f"bench/results/{name}: the sweep part does not have its two studies")
    keys = ["pipeline obliq model | obliq impact", "obliq sweep --threads 1", "obliq sweep --threads 0",
            "mpirun -np 2 obliq sweep --threads 1", "mpirun -np 4 obliq sweep --threads 1"]
    out = ["| study | bare eval + impact us/sample (1 thread) | `obliq sweep` us/sample (1 thread) | sweep / bare | "
           + " | ".join(f"{k.replace('|', '&#124;')} samples/s" for k in keys) + " |",
           "|---|---|---|---|" + "---|" * len(keys)]
    for i, s in enumerate(studies):  # study 0 of bench_sweep_throughput is the first one run
        bare, sweep = cpu[("Bare", i)], cpu[("Sweep", i)]
        out.append(f"| {s} | {bare:.2f} | {sweep:.2f} | {sweep / bare:.2f}x | "
                   + " | ".join(f"{rates[s][k]:,}" for k in keys) + " |")
    return out


def render(template):
    out = []
    for n, line in enumerate(template, 1):
        if not line.startswith("@"):
            out.append(line)
            continue
        words = shlex.split(line)
        try:
            if words[0] == "@run" and len(words) == 2:
                out.append(run_line(read_results(words[1]), words[1]))
            elif words[0] == "@table" and len(words) in (3, 4):
                found = tables(section(read_results(words[1]), words[2], words[1]))
                k = int(words[3]) if len(words) == 4 else 0
                if k >= len(found):
                    raise TemplateError(f'section "{words[2]}" of bench/results/{words[1]} has {len(found)} tables, not {k + 1}')
                out.extend(found[k])
            elif words[0] == "@sweep" and len(words) == 2:
                out.extend(sweep_table(read_results(words[1]), words[1]))
            else:
                raise TemplateError(f"unknown directive or wrong arguments: {line}")
        except TemplateError as e:
            raise TemplateError(f"bench/benchmarks.md.in:{n}: {e}") from None
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with docs/benchmarks.md instead of writing it")
    ap.add_argument("--template", default=os.path.join(ROOT, "bench", "benchmarks.md.in"))
    ap.add_argument("--output", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    args = ap.parse_args()
    with open(args.template) as f:
        template = f.read().splitlines()
    try:
        text = render(template)
    except TemplateError as e:
        print(f"make_benchmarks_md: {e}", file=sys.stderr)
        return 2
    if args.check:
        current = open(args.output).read() if os.path.exists(args.output) else ""
        if current != text:
            print(f"make_benchmarks_md: {os.path.relpath(args.output, ROOT)} is not what bench/benchmarks.md.in and "
                  "bench/results/ give: run python3 bench/make_benchmarks_md.py (never edit it by hand)", file=sys.stderr)
            return 1
        return 0
    with open(args.output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
