#!/usr/bin/env python3
"""Cost model of the multi-GPU sort (kernels/device/distributed.cu), from bench-multigpu's JSON.

Each phase is predicted from what one GPU and the links do alone, measured in the same run:
  - the device copy rate B_hbm (bytes read + written per second); a read-only pass reads n bytes
    at about the same rate (the sort's upfront histogram: 2^28 keys in 0.25 ms on an H200);
  - one GPU's radix sort of a shard, T_sort(n), and its radix partition by one 8-bit digit,
    T_part(n), on uniform keys; another distribution sorts at the rate one GPU sorted the case's
    total of it (single_gpu_ms of that distribution against uniform's);
  - NCCL's rate for each case's own transfers (NCCL's send/recv of the same messages in the same
    groups, each waited for, measured beside the case; else of the same bytes in one group), or
    NCCL's all-to-all of a shard where a case has neither, plus a fixed cost per transfer;
  - the merge's rate, bound by the SMs: a round over 2^28 keys 0.99 ms, pairs 1.48 ms (4 x H200,
    f0a1a4d: two rounds 1.97 and 2.97 ms).
Constants fitted to the first 4 x H200 run (f0a1a4d, bench/NOTES-distributed.md) are named below.

The pipeline: every rank's range is cut into P pieces by key (PartitionFirst keys: each 1.5x the
one before by default; otherwise equal); piece j travels in its own transfer, and is sorted (PartitionFirst)
or merged (SortFirst) once it is in, while piece j + 1 travels. A kernel and NCCL's kernel side by
side share the SMs: the region where they overlap costs max(a, b) + KAPPA * min(a, b).
  SortFirst:      T_sort(n) + splitters + X_0 + overlap(M_0..P-2, X_1..P-1) + M_P-1
  PartitionFirst: splitters + partition + copies + X_0 + overlap(S_0..P-2, X_1..P-1) + S_P-1
Where the cuts are top-digit edges (one splitter round), a case measured with the code of run 3
(its JSON has `realigned`) stages its runs at their receivers' alignment (no copies but the own
run's), its partition takes the splitters' counts (no histogram read), and each piece's sort is
segmented by the top digit: the histogram and three of four passes (seven of eight for 64-bit
keys; the model takes 32-bit keys). A case whose JSON has `copied` (197333f on) copied that many
of its own keys and values; the partition wrote the rest of its own runs in place.

  distributed_cost_model.py check RUN.json...     predicted against measured, per case and phase
  distributed_cost_model.py predict RUN.json       8 GPUs on NVLink, 16 to 64 over InfiniBand
  distributed_cost_model.py summary RUN.json...    the figures of issue 26, compact (run.sh prints it)
"""
import json
import math
import sys

# A merge round over 2^28 keys (4 x H200, f0a1a4d: sort-first's two rounds at 2^28 keys per GPU).
MERGE_MS_2_28 = {False: 0.99, True: 1.48}
# One NCCL group and the wait for it, and a host round trip of the splitters or the class counts
# (the gaps between the steps of f0a1a4d).
LAUNCH_MS = 0.03
# A splitter round's readback and all-gather beside its counting (f0a1a4d: partition-first's first
# round took the read of the shard plus 0.10-0.13 ms at every size).
ROUND_MS = 0.12
# Sort-first's first round, read back from the sort's own counts (f0a1a4d: 0.08-0.15 ms).
SORTED_FIRST_ROUND_MS = 0.12
# A refinement round of binary searches in the sorted shard: launches, readback and all-gather
# (estimate: one round trip).
SORTED_ROUND_MS = 0.06
# The stable scatter into classes where the cuts are not top-digit edges (a second splitter round,
# or ties), against the radix partition pass: per rank beyond the first, keys 0.5, pairs 0.37
# (f0a1a4d, skewed and all-equal against uniform: 1.6-1.8x on 2 GPUs, 2.1-2.55x on 4).
CLASS_PATH_PER_RANK = {False: 0.5, True: 0.37}
# Skewed keys staged by two passes (stage_passes 2): the pass by the top digit, against one over
# uniform keys, slowed by the hot digit, and the second pass over the hot digit's keys, the bench's
# skewed keys' 70 %. The hot digit ranked by ballot (8801c59 on): 1.54 - 0.27 ms against 1.16 at
# 2^28 keys (the tuner's whole sorts, H200); by shared atomics before (HOT_BY_ATOMICS: 1.54, ncu,
# 2 x H200, 7025fe5).
SKEWED_PASS = 1.10
SKEWED_PASS_BY_ATOMICS = 1.33
HOT_BY_ATOMICS = {"8ae9c9c"}
# Skewed keys staged by one split pass (stage_passes 1 after two splitter rounds, e9bb8ad on): the
# top digits and the hot digit's sub-digits, 511 bins, whose runs a tile writes are half as long,
# against the pass by the top digit of uniform keys (run 14, 4 x H200, 2^28: partition 1.69 ms
# against 1.36).
SPLIT_PASS = 1.27
HOT_SHARE = 0.70
# Where the hot digit's keys lie in the global order (0x42 of 256 top digits, the other 30 % of the
# keys uniform): a rank's pieces inside it sort by two passes of four, the others by three.
HOT_SPAN = (0.30 * 0x42 / 256, 0.30 * 0x42 / 256 + HOT_SHARE)
# Runs whose start is off their receiver's alignment to 256 bytes are copied first: 63 in 64.
MISALIGNED = 63 / 64
# Two kernels side by side, one of them NCCL's: the overlap saves only (1 - KAPPA) of the shorter
# (f0a1a4d, sort-first peer by peer, a merge round beside the last transfers: it hid 0.47 of 0.99 ms
# at 2^28 and 1.72 of 3.82 at 2^30: 0.5). Refitted to runs 12 and 13's default way on 2 and 4 GPUs
# (8ae9c9c, 8801c59), where the local sorts overlap the transfers: 0.4 (0.5 left 4 GPUs' uniform
# keys at 2^28 of 8801c59's machine at +16.5 %).
KAPPA = 0.4
# Partition-first's host work before its first transfer, per rank the process drives: the classes
# and routes, the partition's places and launch, every piece's segment tables (host timers around
# those steps, run 16, 4 and 2 x H200, 18d6555: 0.11-0.18 ms a rank after one splitter round,
# 0.11-0.25 after two, whose split pass has 511 bins; the first ranks' passes start before the
# last rank's plan, so the values are the low end that fits runs 13-16). The partition's step takes
# the longer of it and the GPU's pass: at 2^26 keys on 4 GPUs driven by one process the host's.
HOST_MS_PER_RANK = {1: 0.10, 2: 0.20}
# The one run with the stage's gaps but whole-piece local sorts (run 3's first call).
WHOLE_PIECE_SORTS = {"fb6b1cb"}
# Past one node: 400 Gb/s per GPU, 45 GB/s after protocol overheads.
IB_GB_PER_S = 45.0


def load(path):
    with open(path) as f:
        return json.load(f)


def shard_refs(run):
    """(log2, pairs) -> the shard's one-GPU sort and partition (ms) and NCCL's all-to-all (GB/s)."""
    return {(s["keys_per_gpu_log2"], s["pairs"]): s for s in run.get("shard", [])}


def nearest(refs, log2n, pairs, field):
    """The reference at this size; else from the nearest size that has it (ms scaled linearly)."""
    have = [(abs(k[0] - log2n), k) for k, s in refs.items() if k[1] == pairs and (s.get(field) or 0) > 0]
    if not have:
        return None
    _, key = min(have)
    value = refs[key][field]
    if field.endswith("_ms"):
        value *= 2.0 ** (log2n - key[0])
    return value


class Machine:
    """The measured rates a prediction uses."""

    def __init__(self, run):
        self.refs = shard_refs(run)
        self.hbm = run["hbm_copy_gb_per_s"]  # GB/s, read + write
        # The sort's rate on each distribution against uniform keys, per (pairs, total keys).
        self.dist_factor = {}
        uniform = {}
        for c in run.get("results", []):
            if c.get("single_gpu_ms") and c["keys"] == "uniform":
                uniform[(c["pairs"], c["total_keys"])] = c["single_gpu_ms"]
        for c in run.get("results", []):
            u = uniform.get((c["pairs"], c["total_keys"]))
            if c.get("single_gpu_ms") and u:
                self.dist_factor[(c["pairs"], c["keys"], c["keys_per_gpu_log2"])] = c["single_gpu_ms"] / u

    def sort_ms(self, n, pairs, dist="uniform"):
        """One GPU's sort of n keys: the per-key time of the nearest reference size."""
        log2n = math.log2(max(n, 1))
        t = nearest(self.refs, round(log2n), pairs, "one_gpu_sort_ms")
        if t is None:
            return None
        t *= 2.0 ** (log2n - round(log2n))
        return t * self.factor(pairs, dist, round(log2n))

    def factor(self, pairs, dist, log2n):
        have = [(abs(k[2] - log2n), v) for k, v in self.dist_factor.items() if k[0] == pairs and k[1] == dist]
        return min(have)[1] if have else 1.0

    def partition_ms(self, log2n, pairs):
        return nearest(self.refs, log2n, pairs, "one_gpu_partition_ms")

    def a2a_gb_per_s(self, log2n, pairs):
        return nearest(self.refs, log2n, pairs, "nccl_alltoall_gb_per_s_per_gpu")


def overlap(a, b):
    """Two streams' work side by side, one of them NCCL's."""
    return max(a, b) + KAPPA * min(a, b)


def piece_fractions(scheme, pairs, pieces, growth=None):
    """Each piece's share of a rank's range: sizes 1, growth, growth^2, ... (the case's growth where
    its JSON says, else the library's default: 1.5 for partition-first keys, else 1)."""
    if growth is None:
        growth = 1.5 if scheme == "partition-first" and not pairs else 1.0
    w = [growth ** j for j in range(pieces)]
    return [x / sum(w) for x in w]


def phases(m, G, log2n, pairs, scheme, pieces, dist="uniform", moved_per_gpu=None, rounds=1, rate=None,
           transfers=None, gaps=True, segmented=True, copied=None, stage_passes=None, tried=0,
           hot_by_ballot=True, launches=None, growth=None, driven=None):
    """Predicted phase times (ms) and the total with the overlap, for one rank count and shard size.
    rate: the exchange's GB/s per GPU (default NCCL's all-to-all of a shard at this size).
    gaps, segmented: the code of run 3 (the stage's gaps; segmented local sorts), where the cuts allow it.
    copied: the elements of own runs copied over all ranks (None: every own run).
    stage_passes: the radix passes that staged the shard (None: one where one round placed the cuts).
    hot_by_ballot: the pass by the top digit ranks a hot digit by ballot (else by shared atomics).
    launches: the splitter rounds that read the shard (None: every round; 41d28b5 on, a second round
    of the top digit that the first round's sample found hot reads none).
    tried: partition-first's splitter rounds that read the shard before the call turned to sort first.
    growth: each piece's size over the one before's (None: the library's default).
    transfers: the call's NCCL groups (None: one a piece, and for partition-first one more, which
    carries every piece's heads).
    driven: the ranks one process drives (None: all G; 1 for one process per GPU)."""
    n = 2.0 ** log2n
    elem = 8 if pairs else 4
    moved = moved_per_gpu if moved_per_gpu is not None else n * elem * (G - 1) / G
    rate = rate or m.a2a_gb_per_s(log2n, pairs)
    read_ms = n * 4 / (m.hbm * 1e6)
    # Keys all equal on the range: every rank keeps its keys, one piece.
    P = 1 if dist == "all-equal" else pieces
    f = piece_fractions(scheme, pairs, P, growth)
    if transfers is None:
        transfers = 0 if moved == 0 else P + (1 if scheme == "partition-first" else 0)
    x = [moved / (rate * 1e6) * fj + transfers / P * LAUNCH_MS for fj in f] if moved > 0 else [0.0] * P
    if scheme == "sort-first":
        t_sort = m.sort_ms(n, pairs, dist)
        split = tried * (read_ms + ROUND_MS) + SORTED_FIRST_ROUND_MS + (rounds - 1) * SORTED_ROUND_MS
        # Where nothing moves a rank's own run is all it holds: the merge is a copy.
        if G > 1 and moved > 0:
            t_merge = math.ceil(math.log2(G)) * MERGE_MS_2_28[pairs] * n / 2.0 ** 28
        else:
            t_merge = 2 * n * elem / (m.hbm * 1e6)
        merges = [t_merge * fj for fj in f]
        p = {"splitters": split, "partition": t_sort + LAUNCH_MS, "exchange": sum(x), "local": sum(merges)}
        p["total"] = t_sort + LAUNCH_MS + split + x[0] + overlap(sum(merges[:-1]), sum(x[1:])) + merges[-1]
        return p
    # partition-first
    split = (rounds if launches is None else launches) * (read_ms + ROUND_MS)
    t_part = m.partition_ms(log2n, pairs)
    by_top_digit = stage_passes > 0 if stage_passes is not None else rounds == 1 and dist != "all-equal"
    if not by_top_digit:
        t_part *= 1 + CLASS_PATH_PER_RANK[pairs] * (G - 1)
    elif stage_passes == 2:
        t_part *= (SKEWED_PASS if hot_by_ballot else SKEWED_PASS_BY_ATOMICS) + HOT_SHARE
    elif rounds == 2:
        t_part *= SPLIT_PASS
    own = n * elem - moved
    copies = 2 * (own + MISALIGNED * moved) / (m.hbm * 1e6)
    sorts = [m.sort_ms(n * fj, pairs, dist) for fj in f]
    if gaps and by_top_digit:
        t_part -= read_ms  # the partition takes the splitters' counts
        if copied is not None:
            own = copied * 4 / G  # keys and values of 4 bytes
        copies = 2 * own / (m.hbm * 1e6)  # only the own run's copy
    if gaps and segmented and by_top_digit:
        passes = 0.75  # three passes of four
        if rounds == 2:  # the slowest rank: the one whose range holds the least of the hot digit
            hot = min((min(HOT_SPAN[1], (r + 1) / G) - max(HOT_SPAN[0], r / G)) * G for r in range(G))
            passes = 0.75 * (1 - max(hot, 0.0)) + 0.5 * max(hot, 0.0)
        sorts = [fj * read_ms + passes * (s - fj * read_ms) for s, fj in zip(sorts, f)]
    host = HOST_MS_PER_RANK[2 if by_top_digit and rounds == 2 else 1] * (G if driven is None else driven)
    stage = max(t_part + LAUNCH_MS, host)
    p = {"splitters": split, "partition": stage + copies, "exchange": sum(x), "local": sum(sorts)}
    first = copies / P + max(x[0], copies * (P - 1) / P)
    p["total"] = split + stage + first + overlap(sum(sorts[:-1]), sum(x[1:])) + sorts[-1]
    return p


def has_refs(run):
    """Whether the run measured the one-GPU references (a one-process run does)."""
    return "hbm_copy_gb_per_s" in run and any((s.get("one_gpu_sort_ms") or 0) > 0 for s in run.get("shard", []))


def case_phases(m, G, c, commit=""):
    """The prediction for a measured case, at the rate NCCL reached for the same transfers beside it
    (pieces of a few MB to a peer move faster in their own groups than all of them in one)."""
    rate = None
    nccl_ms = c.get("nccl_same_transfers_ms") or c.get("nccl_same_bytes_ms")
    if nccl_ms:
        rate = c["moved_bytes_per_gpu"] / nccl_ms / 1e6
    # The default way on up to 4 GPUs sorts first after partition-first's first round (all keys
    # equal: one top digit holds every key, no second round), which read the shard.
    tried = 1 if c["way"].startswith("auto") and c["scheme_run"] == "sort-first" and G <= 4 else 0
    return phases(m, G, c["keys_per_gpu_log2"], c["pairs"], c["scheme_run"], c["pieces_run"], c["keys"],
                  c["moved_bytes_per_gpu"], c["splitter_rounds"], rate, c.get("transfers"), "realigned" in c,
                  commit not in WHOLE_PIECE_SORTS, c.get("copied"), c.get("stage_passes"), tried,
                  commit not in HOT_BY_ATOMICS, c.get("splitter_launches"), c.get("growth_run"))


def results(run):
    return [c for c in run["results"] if "skipped" not in c and "pieces_run" in c]


def check(paths):
    worst = 0.0
    for path in paths:
        run = load(path)
        G = run["gpu_count"]
        if not has_refs(run):
            print(f"{path}: {G} x {run['gpu']}: no one-GPU references (one process per GPU), not checked")
            continue
        if run.get("transport", "nccl") != "nccl":
            print(f"{path}: {G} x {run['gpu']}: over {run['transport']} copies, which the model (NCCL's rates) "
                  "does not take, not checked")
            continue
        m = Machine(run)
        print(f"{path}: {G} x {run['gpu']}, NCCL {run['nccl_version']}, copy {run['hbm_copy_gb_per_s']:.0f} GB/s")
        print(f"  {'case':44s} {'measured':>9s} {'predicted':>9s} {'error':>7s}   phases measured / predicted (split part exch local)")
        for c in results(run):
            p = case_phases(m, G, c, run.get("commit", ""))
            err = p["total"] / c["ms"] - 1
            worst = max(worst, abs(err))
            ph = c["phases_ms"]
            name = f"{c['keys']} {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}"
            flag = "" if abs(err) <= 0.15 else "  <-- outside 15 %"
            print(f"  {name:44s} {c['ms']:9.2f} {p['total']:9.2f} {100 * err:+6.1f}%   "
                  f"{ph['splitters']:.2f} {ph['partition']:.2f} {ph['exchange']:.2f} {ph['local']:.2f} / "
                  f"{p['splitters']:.2f} {p['partition']:.2f} {p['exchange']:.2f} {p['local']:.2f}{flag}")
    print(f"largest error {100 * worst:.1f} %")


def predict(path):
    """8 GPUs on one NVLink node (NCCL's all-to-all at the rate the run measured for a shard), and
    16 to 64 GPUs in nodes of 8 over InfiniBand: a key that leaves its node crosses one NIC, so the
    exchange takes the longer of its NVLink and its InfiniBand share. One process per GPU."""
    run = load(path)
    m = Machine(run)
    G_run = run["gpu_count"]
    print(f"from {path} ({G_run} x {run['gpu']}); InfiniBand {IB_GB_PER_S:.0f} GB/s per GPU")
    print(f"{'GPUs':>5s} {'keys/GPU':>9s} {'kind':>5s} {'scheme':>18s} {'sort':>6s} {'exch':>6s} {'total':>7s} "
          f"{'GKeys/s':>8s} {'per GPU':>8s}")
    for G in (4, 8, 16, 32, 64):
        for log2n in (26, 28, 30):
            for pairs in (False, True):
                if m.sort_ms(2.0 ** log2n, pairs) is None or m.partition_ms(log2n, pairs) is None:
                    continue
                n = 2.0 ** log2n
                elem = 8 if pairs else 4
                nvl = m.a2a_gb_per_s(log2n, pairs)
                if G <= 8:
                    rate = nvl
                else:
                    # Bytes per GPU: (G - 8) / G leave the node over IB, 7 / G stay on NVLink.
                    t = max(n * elem * (G - 8) / G / (IB_GB_PER_S * 1e6), n * elem * 7 / G / (nvl * 1e6))
                    rate = n * elem * (G - 1) / G / 1e6 / t
                best = None
                for scheme, pieces in (("sort-first", 1), ("sort-first", 4), ("partition-first", 1),
                                       ("partition-first", 4), ("partition-first", 8)):
                    if scheme == "sort-first" and G > 4:
                        continue
                    p = phases(m, G, log2n, pairs, scheme, pieces, rate=rate, driven=1)
                    if best is None or p["total"] < best[2]["total"]:
                        best = (scheme, pieces, p)
                scheme, pieces, p = best
                rate_total = G * n / p["total"] / 1e6
                sort = p["local"] if scheme == "partition-first" else p["partition"]
                print(f"{G:5d} {'2^%d' % log2n:>9s} {'pairs' if pairs else 'keys':>5s} {scheme + ':' + str(pieces):>18s} "
                      f"{sort:6.2f} {p['exchange']:6.2f} {p['total']:7.2f} {rate_total:8.1f} {rate_total / G:8.2f}")


def summary(paths):
    """The figures issue 26 asks for, from the runs given (one-process runs and one-process-per-GPU
    runs), compactly: per rank count, kind, size and keys the fastest way and its speed-up; the
    targets; the exchange against NCCL; whether every result was right; the model's error; process
    per GPU against one process; the tuning rows."""
    runs = [load(p) for p in paths]
    one = [r for r in runs if r.get("processes", 1) == 1]
    best = {}
    for run in one:
        G = run["gpu_count"]
        for c in results(run):
            key = (G, c["pairs"], c["keys_per_gpu_log2"], c["keys"])
            if key not in best or c["ms"] < best[key]["ms"]:
                best[key] = c

    def pct(v):
        return f"{100 * v:.0f}%" if v is not None else "n/a"

    print(f"{'G':>2s} {'kind':5s} {'n/GPU':>5s} {'keys':9s} {'fastest way':18s} {'ms':>8s} {'GKeys/s':>8s} {'x 1 GPU':>7s} "
          f"{'exch/NCCL':>9s} {'(groups)':>8s} {'balance':>7s}  others (ms)")
    for key in sorted(best):
        G, pairs, log2n, dist = key
        c = best[key]
        others = [f"{o['way']} {o['ms']:.2f}" for run in one if run["gpu_count"] == G for o in results(run)
                  if (o["pairs"], o["keys_per_gpu_log2"], o["keys"]) == (pairs, log2n, dist) and o is not c]
        sp = f"{c['speedup_vs_single_gpu']:.2f}" if c.get("speedup_vs_single_gpu") else "n/a"
        print(f"{G:2d} {'pairs' if pairs else 'keys':5s} {'2^%d' % log2n:>5s} {dist:9s} {c['way']:18s} {c['ms']:8.2f} "
              f"{c['gkeys_per_s']:8.1f} {sp:>7s} {pct(c.get('exchange_vs_nccl_same_bytes')):>9s} "
              f"{pct(c.get('exchange_vs_nccl_same_transfers')):>8s} {c['balance']:7.4f}  " + ", ".join(others))

    def get(G, pairs, log2n, dist="uniform"):
        return best.get((G, pairs, log2n, dist))

    print("targets (issue 26):")
    for G, pairs, log2n, what, target in ((4, False, 28, "speed-up", 3.0), (4, True, 28, "speed-up", 2.5),
                                          (2, False, 28, "speed-up", 1.7), (4, False, 30, "GKeys/s", 120.0)):
        c = get(G, pairs, log2n)
        v = c and (c.get("speedup_vs_single_gpu") if what == "speed-up" else c["gkeys_per_s"])
        if v:
            print(f"  {G} GPUs {'pairs' if pairs else 'keys'} 2^{log2n}/GPU {what}: {v:.2f} (target {target}) via {c['way']}")
    for G in sorted({k[0] for k in best}):
        for pairs in (False, True):
            u, s = get(G, pairs, 28), get(G, pairs, 28, "skewed")
            if u and s:
                print(f"  {G} GPUs {'pairs' if pairs else 'keys'} 2^28 skewed / uniform rate: "
                      f"{s['gkeys_per_s'] / u['gkeys_per_s']:.2f} (target 0.90)")
    for field, what in (("exchange_vs_nccl_same_bytes", "NCCL's all-to-all of the same bytes in one group"),
                        ("exchange_vs_nccl_same_transfers", "NCCL moving the same bytes in the call's own groups")):
        ratios = [c[field] for c in best.values() if c.get(field) is not None]
        if ratios:
            print(f"  exchange / {what}, fastest ways: {100 * min(ratios):.0f} to {100 * max(ratios):.0f} % (target 90; "
                  f"all-equal keys move nothing: n/a)")
    wrong = [f"{r['gpu_count']} GPUs {c['keys']} {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}"
             for r in runs for c in results(r) if c.get("verified") is False]
    checked = sum(1 for r in runs for c in results(r) if "verified" in c)
    print(f"  results checked (in order, the input's pairs): {checked - len(wrong)} of {checked} right"
          + (": WRONG " + "; ".join(wrong) if wrong else ""))
    failed = [f"{r['gpu_count']} GPUs {c['keys']} {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}: "
              f"{c['error']}" for r in runs for c in r["results"] if "error" in c]
    if failed:
        print("  calls that FAILED: " + "; ".join(failed))
    for run in runs:
        if run.get("processes", 1) == 1:
            continue
        G = run["gpu_count"]
        for c in results(run):
            same = [o for r in one if r["gpu_count"] == G for o in results(r)
                    if (o["pairs"], o["keys_per_gpu_log2"], o["keys"], o["way"]) ==
                    (c["pairs"], c["keys_per_gpu_log2"], c["keys"], c["way"])]
            ref = f"one process {same[0]['ms']:.2f} ms ({100 * (c['ms'] / same[0]['ms'] - 1):+.1f} %)" if same else "no one-process run"
            print(f"  process per GPU, {G} GPUs {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}: "
                  f"{c['ms']:.2f} ms; {ref}")
    errors = []
    for run in one:
        if not has_refs(run):
            continue
        m = Machine(run)
        errors += [case_phases(m, run["gpu_count"], c, run.get("commit", ""))["total"] / c["ms"] - 1 for c in results(run)]
    if errors:
        inside = sum(1 for e in errors if abs(e) <= 0.15)
        print(f"  cost model: {inside} of {len(errors)} cases within 15 %, errors {100 * min(errors):+.0f} to "
              f"{100 * max(errors):+.0f} %")
    print("tuning rows (kernels/tuning/distributed.cuh), fastest way on uniform keys:")
    for key in sorted(best):
        G, pairs, log2n, dist = key
        if dist != "uniform":
            continue
        c = best[key]
        scheme = "SortFirst" if c["scheme_run"] == "sort-first" else "PartitionFirst"
        print(f"  {{{G}, {'true' if pairs else 'false'}, {log2n}, DistributedScheme::{scheme}, {c['pieces_run']}}},"
              f"  // {c['ms']:.2f} ms")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "predict", "summary"):
        print(__doc__)
        return 2
    {"check": check, "predict": lambda p: predict(p[0]), "summary": summary}[argv[1]](argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
