#!/usr/bin/env python3
"""The performance targets of one bench/run_all.sh run, read from its log: each target with the
time ratio and the instruction ratio that this run measured, and met or not met.

    bench/run_all_targets.py BUILD_DIR/run_all.log

bench/run_all.sh calls it on its own log as its last section. The figures are only read from the
tables the parts printed (nothing is measured here); a target whose part was skipped or whose
table is missing reads "not measured". The targets (docs/development.md, "Targets"):
  - model evaluation + impact at least 2x Pinocchio per state (Solo-12, Go1, TALOS, G1);
  - Lemke, cold, at least 3x Siconos's at every m <= 24, with 100 % success;
  - the core at least 5x the Eigen reference at (n, m) = (12, 4), all four kind x law cells;
  - the frictional impact (exact cone) at least 3x Siconos's fc3d_nsgs at every contact count;
  - a sweep (`obliq sweep`, one thread) within 1.1x of the bare core's samples/s;
  - the certificate at most 10 % of the core's instructions at (12, 4).
Time ratios are peer time / obliq time (above 1: obliq faster); instruction ratios likewise."""
import re
import sys


# The targets, as the table names them.
PINOCCHIO = "model evaluation + impact >= 2x Pinocchio per state"
LEMKE = "Lemke cold >= 3x Siconos at every m <= 24, 100 % success"
CORE = "core >= 5x the reference at (12, 4), all four cells"
FRICTION = "frictional impact (cone) >= 3x fc3d_nsgs at 1-24 contacts"
SWEEP = "`obliq sweep` within 1.1x of the bare core, one thread"
CERTIFICATE = "certificate <= 10 % of the core's instructions at (12, 4)"


def unmeasured(target, time="not measured"):
    """The row of a target whose part was skipped or whose table is missing."""
    return (target, time, "not measured", "not measured")


def tables(lines):
    """Every markdown table of the log as (header cells, rows of cells), in order."""
    out, cur = [], None
    for line in lines:
        s = line.strip()
        if s.startswith("|") and s.endswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if cur is None:
                cur = (cells, [])
            elif not all(set(c) <= set("-: ") for c in cells):
                cur[1].append(cells)
        elif cur is not None:
            out.append(cur)
            cur = None
    if cur is not None:
        out.append(cur)
    return out


def find(all_tables, *header_words):
    """The first table whose header contains every one of header_words (as substrings)."""
    for header, rows in all_tables:
        joined = " | ".join(header)
        if all(w in joined for w in header_words):
            return header, rows
    return None


def col(header, word):
    return next(i for i, h in enumerate(header) if word in h)


def num(text):
    m = re.search(r"-?[\d,]*\.?\d+(?:e[+-]?\d+)?", text.replace(",", ""))
    return float(m.group(0)) if m else float("nan")


def ratio_range(values):
    return f"{min(values):.2f}x-{max(values):.2f}x" if len(values) > 1 else f"{values[0]:.2f}x"


def verdict(ok):
    return "met" if ok else "**not met**"


def main():
    lines = open(sys.argv[1], errors="replace").read().splitlines()
    t = tables(lines)
    rows = []  # (target, time figures, instruction figures, verdict)

    # Model evaluation + impact against Pinocchio.
    pin_t = find(t, "robot", "obliq eval + impact", "Pinocchio fk+crba+nle")
    pin_i = find(t, "robot", "Pinocchio instr/state", "obliq instr/state")
    if pin_t:
        h, r = pin_t
        speed = [(x[0].split(" (")[0], num(x[col(h, "speed-up")])) for x in r]
        instr = {}
        if pin_i:
            hi, ri = pin_i
            # The instruction table names robots by URDF file; same order as the time table.
            for (name, _), x in zip(speed, ri):
                instr[name] = num(x[col(hi, "Pinocchio / obliq")])
        tf = ", ".join(f"{n} {v:.2f}x" for n, v in speed)
        inf = ", ".join(f"{n} {v:.2f}x" for n, v in instr.items()) or "not measured"
        ok = all(v >= 2 for _, v in speed) and instr and all(v >= 2 for v in instr.values())
        rows.append((PINOCCHIO, tf, inf, verdict(ok)))
    else:
        rows.append(unmeasured(PINOCCHIO))

    # Lemke, cold, against Siconos.
    lcp_t = find(t, "W", "m", "Siconos Lemke us", "obliq Lemke us")
    lcp_i = find(t, "Siconos lemke instr/problem", "obliq lemke instr/problem")
    if lcp_t:
        h, r = lcp_t
        cells = [(x[0], int(num(x[1])), num(x[col(h, "speed")]), x[col(h, "success")]) for x in r if num(x[1]) <= 24]
        # The success cell is "Siconos's, obliq's": the target concerns obliq's (the last one).
        full = all(a == b for a, b in (re.findall(r"(\d+)/(\d+)", succ)[-1] for *_, succ in cells))
        tf = (f"full rank {ratio_range([v for w, _, v, _ in cells if w == 'full rank'])}, rank-deficient "
              f"{ratio_range([v for w, _, v, _ in cells if w != 'full rank'])} (m = 4-24); success "
              f"{'100 %' if full else 'below 100 %'} (obliq)")
        inf = "not measured"
        ival = []
        if lcp_i:
            hi, ri = lcp_i
            ival = [(int(num(x[0])), num(x[col(hi, "Siconos / obliq")])) for x in ri]
            inf = ", ".join(f"m = {m} {v:.2f}x" for m, v in ival)
        ok = full and all(v >= 3 for *_, v, _ in cells) and ival and all(v >= 3 for _, v in ival)
        rows.append((LEMKE, tf, inf, verdict(ok)))
    else:
        rows.append(unmeasured(LEMKE))

    # The core against the reference at (12, 4), and the certificate's share.
    core_t = find(t, "kind", "law", "reference", "core 1 thread", "core 1t / reference")
    core_i = find(t, "reference instr/scenario", "core instr/scenario", "certificate share")
    cert = []
    if core_t:
        h, r = core_t
        cells = [(f"{x[0]} {x[1]}", num(x[col(h, "core 1t / reference")])) for x in r if x[2] == "12" and x[3] == "4"]
        tf = ", ".join(f"{c} {v:.1f}x" for c, v in cells)
        ival = []
        if core_i:
            hi, ri = core_i
            ival = [(f"{x[0]} {x[1]}", num(x[col(hi, "reference / core")])) for x in ri]
            cert = [(f"{x[0]} {x[1]}", num(x[col(hi, "certificate share")])) for x in ri]
        inf = ", ".join(f"{c} {v:.1f}x" for c, v in ival) or "not measured"
        ok = all(v >= 5 for _, v in cells) and ival and all(v >= 5 for _, v in ival)
        rows.append((CORE, tf, inf, verdict(ok)))
    else:
        rows.append(unmeasured(CORE))

    # Friction: the exact cone against fc3d_nsgs.
    fr_t = find(t, "contacts", "obliq cone (us)", "nsgs / cone")
    fr_i = find(t, "contacts", "Siconos fc3d_nsgs instr/problem", "obliq cone instr/problem")
    if fr_t:
        h, r = fr_t
        cells = [(int(num(x[0])), num(x[col(h, "nsgs / cone")])) for x in r]
        tf = ", ".join(f"{c}: {v:.2f}x" for c, v in cells) + " contacts"
        ival = []
        if fr_i:
            hi, ri = fr_i
            ival = [(int(num(x[0])), num(x[col(hi, "Siconos / obliq")])) for x in ri]
        inf = (", ".join(f"{c}: {v:.2f}x" for c, v in ival) + " contacts") if ival else "not measured"
        ok = all(v >= 3 for _, v in cells) and ival and all(v >= 3 for _, v in ival)
        rows.append((FRICTION, tf, inf, verdict(ok)))
    else:
        rows.append(unmeasured(FRICTION))

    # Sweep against the bare core, one thread.
    bare = {}
    for line in lines:
        m = re.match(r"BM_Bare/study:(\d)/threads:1/\S* ([\d.]+)k/s", line)
        if m:
            bare[int(m.group(1))] = float(m.group(2)) * 1e3
    cli, study = {}, None
    for line in lines:
        m = re.match(r"== (foot_landing|quadruped_touchdown) \(", line)
        if m:
            study = 0 if m.group(1) == "foot_landing" else 1
        m = re.match(r"obliq sweep --threads 1: (\d+) samples/s", line)
        if m and study is not None:
            cli[study] = float(m.group(1))
    sw_i = find(t, "study", "bare core instr/sample", "sweep instr/sample")
    names = {0: "foot landing", 1: "quadruped touchdown"}
    if bare and cli:
        slow = {s: bare[s] / cli[s] for s in sorted(set(bare) & set(cli))}
        tf = ", ".join(f"{names[s]}: bare / sweep {v:.2f}x" for s, v in slow.items())
        ival = []
        if sw_i:
            hi, ri = sw_i
            ival = [(x[0].replace("_", " "), num(x[col(hi, "sweep / bare")])) for x in ri]
        inf = ", ".join(f"{c}: sweep / bare {v:.2f}x" for c, v in ival) or "not measured"
        ok = all(v <= 1.1 for v in slow.values()) and ival and all(v <= 1.1 for _, v in ival)
        rows.append((SWEEP, tf, inf, verdict(ok)))
    else:
        rows.append(unmeasured(SWEEP))

    if cert:
        rows.append((CERTIFICATE, "-",
                     ", ".join(f"{c} {v:.1f} %" for c, v in cert), verdict(all(v <= 10 for _, v in cert))))
    else:
        rows.append(unmeasured(CERTIFICATE, time="-"))

    print("## Targets (read from this run's log by bench/run_all_targets.py)")
    print()
    print("Ratios: the peer's (or the slower path's) time or instructions over obliq's; one thread.")
    print()
    print("| target | time, this run | instructions (callgrind) | verdict |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
