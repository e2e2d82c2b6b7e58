#!/usr/bin/env python3
"""bench/ptxas_resources.py: registers, stack and spills per kernel from a build log of nvcc
with -Xptxas=-v (what bench/gpu_check.sh --build-only configures), as a table.

    python3 bench/ptxas_resources.py BUILD_LOG [--all] [--markdown]

Reads ninja's output: a "[i/n] Building CUDA object .../FILE.cu.o" line, then that job's ptxas
lines ("Compiling entry function 'NAME' for 'sm_90'", "Function properties for NAME", "N bytes
stack frame, S bytes spill stores, L bytes spill loads", "Used R registers, ..."). A ccache hit
replays the same lines. One row per kernel (entry function) and architecture; with --all also
the device functions that ptxas kept separate (not inlined) and that have a stack frame or
spills. Occupancy is the register file's limit alone (65,536 registers per SM, registers
allocated per warp in units of 256, at most 64 warps): shared memory and the block size can
lower it further. Names are demangled with c++filt when it is there and shortened.
"""
import re
import shutil
import subprocess
import sys


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


# Enumerators of the kernels' template arguments, which c++filt prints as casts ("(obliq::sim::
# Integrator)0"): the Simulator's kernels, Moreau-Jean's phase kernels and the event-driven
# advance's (cuda/sim_body.hpp).
ENUMERATORS = {"SimSystems": ["model", "raw"], "Integrator": ["moreau_jean", "event_driven"],
               "MoreauJeanPhase": ["evaluate", "contact_solve", "finish", "contact_setup", "contact_frictionless",
                                   "contact_newton", "contact_other_solvers", "contact_finish"],
               "EventDrivenPhase": ["begin", "control", "acceleration", "impact", "projection", "acceleration_setup",
                                    "acceleration_frictionless", "acceleration_newton", "acceleration_other_solvers",
                                    "acceleration_finish", "impact_setup", "impact_frictionless", "impact_newton",
                                    "impact_other_solvers", "impact_finish", "contact_law", "acceleration_conclude",
                                    "impact_conclude", "projection_conclude"]}


def strip_parameters(name):
    """name without its trailing parameter list (the last balanced parenthesised group)."""
    if not name.endswith(")"):
        return name
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[i], 0)
        if depth == 0:
            return name[:i]
    return name


def enumerator(m):
    names = ENUMERATORS.get(m.group(1))
    value = int(m.group(2))
    return names[value] if names and value < len(names) else f"{m.group(1)}({value})"


def shorten(name):
    name = name.replace("(anonymous namespace)::", "")
    name = strip_parameters(name)
    name = re.sub(r"\((?:[\w:]+::)?(\w+)\)(\d+)", enumerator, name)
    name = re.sub(r"^void ", "", name)
    name = name.replace("obliq::cuda::", "").replace("obliq::", "").replace("CUB_300001_SM_900::", "")
    return name if len(name) <= 70 else name[:67] + "..."


def occupancy(regs):
    if regs <= 0:
        return 64
    per_warp = -(-regs * 32 // 256) * 256
    return min(64, 65536 // per_warp)


def parse(lines):
    rows = {}  # (file, name, arch) -> dict
    order = []
    current_file = "?"
    pending_props = None  # name whose "Function properties" line came last
    entry = None  # (name, arch) of the last "Compiling entry function", until its "Used" line
    arch = "?"  # the architecture being compiled (device functions are listed after their entry)
    for line in lines:
        m = re.search(r"Building CUDA object \S*?([^/\s]+\.cu)\.o", line)
        if m:
            current_file = m.group(1)
            continue
        m = re.search(r"Compiling entry function '([^']+)' for '(sm_\w+)'", line)
        if m:
            entry = (m.group(1), m.group(2))
            arch = m.group(2)
            key = (current_file, entry[0], entry[1])
            if key not in rows:
                rows[key] = {"kernel": True, "regs": None, "stack": 0, "spill_st": 0, "spill_ld": 0}
                order.append(key)
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            pending_props = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and pending_props:
            key = (current_file, pending_props, arch)
            if key not in rows:
                rows[key] = {"kernel": entry is not None and pending_props == entry[0], "regs": None, "stack": 0,
                             "spill_st": 0, "spill_ld": 0}
                order.append(key)
            rows[key].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
            pending_props = None
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and entry:
            key = (current_file, entry[0], entry[1])
            if key in rows:
                rows[key]["regs"] = int(m.group(1))
            entry = None
    return rows, order


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_all = "--all" in sys.argv
    markdown = "--markdown" in sys.argv
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], errors="replace") as f:
        rows, order = parse(f)
    keep = [k for k in order if rows[k]["kernel"] or (show_all and (rows[k]["stack"] or rows[k]["spill_st"]))]
    if not keep:
        print("ptxas: no resource lines in the build log (not built with -Xptxas=-v, or nothing compiled)")
        return 1
    names = demangle(sorted({k[1] for k in keep}))
    head = ["file", "kernel" if not show_all else "kernel / device function", "arch", "registers", "stack B",
            "spill stores B", "spill loads B", "warps/SM (registers)"]
    table = []
    for k in keep:
        r = rows[k]
        regs = r["regs"]
        kind = "" if r["kernel"] else " (function)"
        table.append([k[0], shorten(names[k[1]]) + kind, k[2], "-" if regs is None else str(regs), str(r["stack"]),
                      str(r["spill_st"]), str(r["spill_ld"]),
                      "-" if regs is None else f"{occupancy(regs)} ({100 * occupancy(regs) // 64} %)"])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for t in table:
            print("| " + " | ".join(t) + " |")
    else:
        widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for t in table:
            print("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
