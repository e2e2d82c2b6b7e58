#!/usr/bin/env python3
"""bench/gpu_model.py: expected impact throughput of each CUDA design on an H200 (a model:
PREDICTED, NOT MEASURED). Prints, per shape and scalar type, the compulsory bytes and the
bandwidth limit, then for each design its bytes through memory per scenario, its limits and
the predicted rate as a fraction of the bandwidth limit.

Designs (docs/cuda.md):
  fused    one thread per scenario, the whole core, scratch arena in global memory
           (cuda/fused_kernels.cu). Limits: L2 traffic (the review's 57 KB per (12, 4) double
           impact, scaled by the dense FLOP count for other shapes), and latency: resident
           scenarios (8 warps/SM at 255 registers) over the time of its arena accesses.
  library  cuBLAS/cuSOLVER batched steps (cuda/library_steps.hpp). Every step reads and writes
           its matrices in DRAM (a chunk of 1e6 scenarios is far larger than L2); the rate is
           that DRAM bound, an UPPER bound (small-matrix batched routines rarely reach it).
  warp     one warp per scenario, matrices in shared memory (cuda/warp_impact.hpp). DRAM
           traffic is the compulsory bytes; limits: bandwidth, instruction issue (warp steps
           counted per phase below), and latency (resident warps x the critical path).

Then the Simulator's Moreau-Jean step with friction (its phase kernels, cuda/sim_body.hpp) for
the quadruped: the bytes the kernels hand each other through global memory per step (the
frames, include/obliq/sim/moreau_jean.hpp and include/obliq/core/friction/impact.hpp), their
DRAM bound, the launches' bound and each kernel's resident warps from its registers (ptxas -v).
The time of the solve itself (latency at those warps) is not modelled: the device measures it.

Usage: python3 bench/gpu_model.py [--shapes 6x3,12x4,30x8]
"""
import argparse
import math

# H200 SXM (datasheet; the clock is the boost clock).
SM = 132
CLOCK = 1.98e9
HBM = 4.8e12            # bytes/s
L2_BW = 10e12           # bytes/s, assumed (not published)
SMEM_PER_SM = 227 * 1024
MAX_WARPS = 64
REGS = 65536
ISSUE = 4               # warp instructions per clock per SM
PEAK = {"double": 34e12, "float": 67e12}  # FLOP/s (FP64 / FP32 vector)

# Assumptions of the model (each printed with the results).
FUSED_L2_BYTES_12_4 = 57e3   # bytes of L2 traffic per (12, 4) double impact (device-less review)
FUSED_WARPS_PER_SM = 8       # 255 registers per thread (ptxas -v, sm_90, 2026-12-07; was 218)
L2_LATENCY = 270             # cycles
FUSED_MLP = 2                # arena accesses in flight per thread (dependent chains)
WARP_REGS = 128              # registers per thread of the warp kernel (ptxas -v, sm_90, double, 2026-12-07; was 72)
STEP_LATENCY = 10            # cycles per dependent inner step (shared load + FMA)
SYNC_CYCLES = 20             # __syncwarp and lane-0 handoff


def compulsory_bytes(n, m, t):
    """What an impact must read (M, qdot, i_u, A, phi, e, tolerances, law) and write."""
    inputs = t * (n * n + 2 * n + m * n + 2 * m + 2) + 1
    outputs = t * (2 * n + m + 2) + m + 1 + 4
    return inputs + outputs


def dense_flops(n, m):
    """The projection law's dense work (Cholesky of M, Y, W, its factor, solves)."""
    return n**3 / 3 + 2 * n * n * m + 2 * n * m * m + m**3 / 3 + 8 * n * n + 4 * n * m


def library_bytes(n, m, mu, t):
    """DRAM bytes of the library path's steps (cuda/library_steps.hpp), one pass each."""
    e = 0
    e += n * n + n * m + n * (m + 1) + m * (m + 1) + m * m   # prep writes L, A'^T, XY, C, I
    e += 2 * n * n                                          # potrf M
    e += 2 * (n * n + 2 * n * (m + 1))                      # two trsm on [A'^T | g]
    e += n * m + n * (m + 1) + 2 * m * (m + 1)              # gemm W
    e += 2 * m * m                                          # potrf W
    e += 2 * (m * m + 2 * m)                                # two trsm for z
    e += n * m + m + 2 * n                                  # gemm y
    e += 2 * (m * m + 2 * m * m)                            # two trsm for W^-1
    e += m * m + 2 * mu * mu                                # energy prep
    e += 2 * (2 * mu * mu + mu)                             # syevj, one pass (a lower bound)
    e += n * (m + 1) + m * (m + 1) + n * n + 2 * mu         # finalize reads
    return t * e + compulsory_bytes(n, m, t) + 5 * 8 + 4 * 4


def warp_steps(n, m, mu):
    """(issue steps, critical-path cycles, syncs) of cuda/warp_impact.hpp for one scenario.
    A step is one inner iteration of one warp instruction stream (a shared load or two, an
    FMA, index arithmetic: about 4 warp instructions, 1 SM clock at 4 issued per clock)."""
    c = lambda k: math.ceil(k / 32)
    steps = 0.0
    crit = 0.0
    syncs = 0

    def phase(items, inner, lane0=False):
        nonlocal steps, crit, syncs
        per = inner if lane0 else c(items) * inner
        steps += per
        crit += per * STEP_LATENCY
        syncs += 1

    phase(n * n + m * n + 2 * n + 2 * mu, 1)      # load and check
    phase(m, n)                                   # candidates, targets
    phase(m * n, 1)                               # mask rows
    for j in range(n):                            # Cholesky of M
        phase(1, j + 20, lane0=True)
        phase(n - j - 1, j)
    phase(m + 1, n * (n + 1) / 2 + n)             # [Y | z]
    phase(m * m, n)                               # W
    phase(m, n)                                   # r0
    for j in range(m):                            # Cholesky of W
        phase(1, j + 20, lane0=True)
        phase(m - j - 1, j)
    phase(1, m * m / 2 + m, lane0=True)           # rank test
    phase(1, m * m + 2 * m, lane0=True)           # lambda
    phase(n, m)                                   # z + Y lambda
    for i in range(n):                            # L^-T
        phase(1, 10, lane0=True)
        phase(i, 1)
    phase(m, 2 * m * m)                           # W^-1
    phase(1, 2 * (mu**3 / 6 + 2 * mu * mu + 20 * mu), lane0=True)  # energy bracket
    phase(n, 2 * m)                               # outputs
    phase(n, n)                                   # energies
    phase(1, 2 * n, lane0=True)
    crit += syncs * SYNC_CYCLES + 800             # + one DRAM round trip for the loads
    return steps, crit, syncs


def warp_shared_bytes(n, m, mu, t):
    N, M, U = n, m, mu
    return t * (N * N + M * N + N * (M + 1) + 2 * M * M + U * U + 4 * N + 3 * M + 2)


# The Simulator's step (PREDICTED, NOT MEASURED). The quadruped (models: nq 19, nv 18, 4 feet in
# space) and the registers per thread of each frictional Moreau-Jean phase kernel (ptxas -v,
# sm_90, nvcc 13.0, 2026-12-07, sixth session: docs/cuda.md "The contact law apart",
# bench/results/ptxas-contact-law-apart-2026-12-07.md).
QUADRUPED = {"nq": 19, "nv": 18, "m_b": 0, "m_u": 4, "dim": 3}
PHASE_REGS = {"double": {"evaluate": 168, "contact_setup": 96, "contact_frictionless": 254, "contact_newton": 150,
                         "contact_other_solvers": 244, "contact_finish": 128, "finish": 71},
              "float": {"evaluate": 144, "contact_setup": 96, "contact_frictionless": 254, "contact_newton": 128,
                        "contact_other_solvers": 226, "contact_finish": 96, "finish": 47}}
LAUNCH_SECONDS = 3e-6        # per kernel launch back to back on one stream (assumed)


def moreau_jean_frame(nv, m_b, m_u, dim):
    """sim::moreau_jean_frame_size: M, h, A, phi, Adot v, A_t, i_u, g_u, v_{k+1}."""
    m = m_b + m_u
    return nv * nv + nv + m * nv + 2 * m + (dim - 1) * m_u * nv + 2 * nv + m_u


def contact_frame(nv, m_b, m_u, dim):
    """sim::contact_frame_size with friction: impulse, lambda, flags, energies, lambda_t, then
    friction::impact_frame_size (progress, the system's factor, A, Z, W, row_of, mu, v_f, q, r, u)."""
    M = m_b + dim * m_u
    impact = 10 + nv * nv + 2 * M * nv + M * M + 2 * M + nv + 3 * M
    return nv + (m_b + m_u) + m_u + 3 + (dim - 1) * m_u + impact


def simulator(copies=(4096, 131072)):
    q = QUADRUPED
    nv, nq = q["nv"], q["nq"]
    frame = moreau_jean_frame(nv, q["m_b"], q["m_u"], q["dim"])
    contact = contact_frame(nv, q["m_b"], q["m_u"], q["dim"])
    state = 2 * (nq + nv) + nv + q["m_u"] + 8  # q, v read and written, u, mu / e, active, counters
    print()
    print("PREDICTED, NOT MEASURED: the Simulator's Moreau-Jean step with friction, quadruped (nv %d, %d feet), "
          "7 phase kernels per step" % (nv, q["m_u"]))
    print("frames handed through global memory per step: the step's %d and the contact solve's %d elements,"
          " each written once and read at least once, plus the state's %d" % (frame, contact, state))
    for tname, t in (("double", 8), ("float", 4)):
        b = t * (2 * (frame + contact) + state)
        regs = PHASE_REGS[tname]
        warps = {k: min(MAX_WARPS, REGS // (-(-r * 32 // 256) * 256)) for k, r in regs.items()}
        launch = ", ".join("%s %d" % (n.replace("contact_", "c."), w) for n, w in warps.items())
        print("%-6s %6.0f B/step: DRAM bound %.2e steps/s; warps/SM (registers): %s" % (tname, b, HBM / b, launch))
        for c in copies:
            print("%-6s   %7d copies: launch bound %.2e steps/s (%d launches x %.0f us per step)"
                  % ("", c, c / (len(regs) * LAUNCH_SECONDS), len(regs), LAUNCH_SECONDS * 1e6))
    print("target: 2.9e6 steps/s (MJX's humanoid, float64, H200); the bounds above are not the limit, the solve's"
          " latency at these warps is, and only the device measures it (bench/gpu_check.sh)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", default="6x3,12x4,30x8")
    args = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    print("PREDICTED, NOT MEASURED: a model of an H200 SXM (132 SMs, %.2f GHz, %.1f TB/s HBM)." % (CLOCK / 1e9, HBM / 1e12))
    print("assumptions: L2 %.0f TB/s; fused: %.0f KB L2 traffic at (12,4) double scaled by FLOPs, %d warps/SM,"
          " L2 latency %d cycles, %d accesses in flight; warp: %d registers/thread, %d cycles per dependent step,"
          " %d cycles per sync" % (L2_BW / 1e12, FUSED_L2_BYTES_12_4 / 1e3, FUSED_WARPS_PER_SM, L2_LATENCY, FUSED_MLP,
                                   WARP_REGS, STEP_LATENCY, SYNC_CYCLES))
    print("%-7s %-6s %8s %10s | %-8s %9s %10s %10s %10s | %s" % ("(n,m)", "type", "bytes", "bw limit/s", "design",
                                                               "bytes", "limit 1", "limit 2", "predicted", "% of bw limit"))
    for n, m in shapes:
        mu = m
        for tname, t in (("double", 8), ("float", 4)):
            comp = compulsory_bytes(n, m, t)
            bw_limit = HBM / comp
            rows = []
            # fused
            l2 = FUSED_L2_BYTES_12_4 * (t / 8) * dense_flops(n, m) / dense_flops(12, 4)
            l2_bound = L2_BW / l2
            resident = FUSED_WARPS_PER_SM * 32 * SM
            latency = (l2 / t) / FUSED_MLP * L2_LATENCY / CLOCK
            lat_bound = resident / latency
            rows.append(("fused", l2, "L2 %.2e" % l2_bound, "lat %.2e" % lat_bound, min(l2_bound, lat_bound)))
            # library
            lb = library_bytes(n, m, mu, t)
            rows.append(("library", lb, "DRAM %.2e" % (HBM / lb), "(upper)", HBM / lb))
            # warp
            steps, crit, _ = warp_steps(n, m, mu)
            sh = warp_shared_bytes(n, m, mu, t)
            warps = min(MAX_WARPS, SMEM_PER_SM // sh, REGS // (32 * WARP_REGS))
            issue = SM * CLOCK / steps
            lat = warps * SM * CLOCK / crit
            rows.append(("warp", comp, "issue %.2e" % issue, "lat %.2e" % lat, min(bw_limit, issue, lat)))
            for i, (name, b, l1, l2s, rate) in enumerate(rows):
                head = ("(%d,%d)" % (n, m), tname, "%d" % comp, "%.2e" % bw_limit) if i == 0 else ("", "", "", "")
                print("%-7s %-6s %8s %10s | %-8s %9.0f %10s %10s %10.2e | %5.1f %%" % (head + (name, b, l1, l2s, rate, 100 * rate / bw_limit)))
            w = rows[2][4]
            print("%-7s %-6s %8s %10s |   warp / fused %.1fx, warp / library (upper bound) %.1fx; warp: %d warps/SM, %.0f shared B/warp"
                  % ("", "", "", "", w / rows[0][4], w / rows[1][4], warps, sh))
    simulator()


if __name__ == "__main__":
    main()
