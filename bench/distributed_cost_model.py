#!/usr/bin/env python3
"""Cost model of the multi-GPU sort (kernels/device/distributed.cu), from bench-multigpu's JSON.

Each phase is predicted from what one GPU and the links do alone, all measured in the same run:
  - the device copy rate B_hbm (bytes read + written per second; a read-only pass moves n bytes
    at about the same rate);
  - one GPU's radix sort of a shard, T_sort(n), and its radix partition by one 8-bit digit,
    T_part(n);
  - NCCL's all-to-all of a shard, B_a2a (bytes leaving each GPU per second);
  - the merge's rate, which is bound by the SMs, not by HBM (primlab_tune_merge, one H100: 2^28 u32
    keys in two runs in 0.99 ms, pairs in 1.67 ms; 4 x H200 sorts merged at 0.98 ms a round), and a
    launch and host round trip per transfer or gather;
  - while the partition and NCCL's kernel overlap, the partition loses the SMs and HBM bandwidth
    NCCL's kernel takes (an estimate, CONTENTION, to be checked against the run).
Sort-first: T_sort(n) + splitters + exchange + ceil(log2 G) merge rounds; peer by peer, the first
pair's merge hides behind the rest of the exchange. Partition-first, K chunks: splitters (a read
of the shard per round) + the partition (T_part(n) and the re-aligning copies) and the exchange
overlapped chunk by chunk (the longer of the two plus a chunk of the shorter) + T_sort(n).

  distributed_cost_model.py check RUN.json...     predicted against measured, per case
  distributed_cost_model.py predict RUN.json       8 GPUs on NVLink, 16 to 64 over InfiniBand
  distributed_cost_model.py summary RUN.json...    the figures of issue 26, compact (run.sh prints it)
"""
import json
import math
import sys

MERGE_MS_2_28 = {False: 0.99, True: 1.67}  # one round over 2^28 keys (primlab_tune_merge, H100)
LAUNCH_MS = 0.03     # one NCCL group or host-synchronous gather, measured as the gap between transfers
SPLITTER_MS = 0.09   # sort-first's splitters: the sort's counts read back and gathered (2 x H100, 8c56105)
MISALIGNED = 0.75    # partition-first runs whose start is off the receiver's 16-byte alignment
CONTENTION = 0.15    # the partition's slowdown while NCCL's kernel runs beside it (estimate)


def load(path):
    with open(path) as f:
        return json.load(f)


def shard_refs(run):
    """(log2, pairs) -> the shard's one-GPU sort and partition (ms) and NCCL's all-to-all (GB/s)."""
    refs = {}
    for s in run.get("shard", []):
        refs[(s["keys_per_gpu_log2"], s["pairs"])] = s
    return refs


def nearest(refs, log2n, pairs, field):
    """The reference at this size, else scaled linearly from the nearest size that has it."""
    have = [(abs(k[0] - log2n), k) for k, s in refs.items() if k[1] == pairs and s.get(field) is not None and s[field] > 0]
    if not have:
        return None
    _, key = min(have)
    value = refs[key][field]
    if field.endswith("_ms"):
        value *= 2.0 ** (log2n - key[0])
    return value


class Machine:
    """The measured rates a prediction uses."""

    def __init__(self, run, a2a_gb_per_s=None):
        self.refs = shard_refs(run)
        self.hbm = run["hbm_copy_gb_per_s"]  # GB/s, read + write
        self.a2a = a2a_gb_per_s

    def sort_ms(self, log2n, pairs):
        return nearest(self.refs, log2n, pairs, "one_gpu_sort_ms")

    def partition_ms(self, log2n, pairs):
        return nearest(self.refs, log2n, pairs, "one_gpu_partition_ms")

    def a2a_gb_per_s(self, log2n, pairs):
        return self.a2a or nearest(self.refs, log2n, pairs, "nccl_alltoall_gb_per_s_per_gpu")


def phases(m, G, log2n, pairs, scheme, chunks, moved_per_gpu=None, rounds=1, exchange_gb_per_s=None):
    """Predicted phase times (ms) and the total with the overlap, for one rank count and shard size."""
    n = 2.0 ** log2n
    elem = 8 if pairs else 4
    moved = moved_per_gpu if moved_per_gpu is not None else n * elem * (G - 1) / G
    rate = exchange_gb_per_s or m.a2a_gb_per_s(log2n, pairs)
    t_sort = m.sort_ms(log2n, pairs)
    if G == 1:
        return {"total": t_sort}
    if scheme == "sort-first":
        merge_rounds = math.ceil(math.log2(G))
        t_round = MERGE_MS_2_28[pairs] * n / 2.0 ** 28
        steps = G - 1 if chunks > 1 and G > 2 else 1
        t_x = moved / (rate * 1e6) + steps * LAUNCH_MS
        t_merge = merge_rounds * t_round
        p = {"splitters": SPLITTER_MS + (rounds - 1) * (n * 4 / (m.hbm * 1e6) + LAUNCH_MS),
             "partition": t_sort, "exchange": t_x, "local": t_merge}
        if steps > 1:
            # The first pair (after the first step) merges while the other steps travel.
            hidden = min(t_x * (steps - 1) / steps, t_round / 2)
            p["total"] = t_sort + p["splitters"] + t_x + t_merge - hidden
        else:
            p["total"] = t_sort + p["splitters"] + t_x + t_merge
        return p
    # partition-first
    t_hist = n * 4 / (m.hbm * 1e6) + LAUNCH_MS
    t_split = rounds * t_hist
    t_align = MISALIGNED * (G - 1) / G * 2 * n * elem / (m.hbm * 1e6)
    t_part = m.partition_ms(log2n, pairs) + t_align
    t_x = moved / (rate * 1e6) + (chunks + 1) * LAUNCH_MS
    if chunks > 1:
        slowed = t_part * (1 + CONTENTION)
        overlapped = max(slowed, t_x) + min(slowed, t_x) / chunks
    else:
        overlapped = t_part + t_x
    p = {"splitters": t_split, "partition": t_part, "exchange": t_x, "local": t_sort}
    p["total"] = t_split + overlapped + t_sort
    return p


def has_refs(run):
    """Whether the run measured the one-GPU references (a one-process run does)."""
    return "hbm_copy_gb_per_s" in run and any((s.get("one_gpu_sort_ms") or 0) > 0 for s in run.get("shard", []))


def case_scheme(c):
    return c.get("scheme_run") or c["way"].split(":")[0]


def check(paths):
    worst = 0.0
    for path in paths:
        run = load(path)
        G = run["gpu_count"]
        if not has_refs(run):
            print(f"{path}: {G} x {run['gpu']}: no one-GPU references (one process per GPU), not checked")
            continue
        m = Machine(run)
        print(f"{path}: {G} x {run['gpu']}, NCCL {run['nccl_version']}, copy {run['hbm_copy_gb_per_s']:.0f} GB/s")
        print(f"  {'case':44s} {'measured':>9s} {'predicted':>9s} {'error':>7s}   phases measured / predicted (split part exch local)")
        for c in run["results"]:
            if "skipped" in c:
                continue
            p = phases(m, G, c["keys_per_gpu_log2"], c["pairs"], case_scheme(c), c["chunks_run"],
                       c["moved_bytes_per_gpu"], c["splitter_rounds"])
            err = p["total"] / c["ms"] - 1
            worst = max(worst, abs(err))
            ph = c["phases_ms"]
            name = f"{c['keys']} {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}"
            flag = "" if abs(err) <= 0.15 else "  <-- outside 15 %"
            print(f"  {name:44s} {c['ms']:9.2f} {p['total']:9.2f} {100 * err:+6.1f}%   "
                  f"{ph['splitters']:.2f} {ph['partition']:.2f} {ph['exchange']:.2f} {ph['local']:.2f} / "
                  f"{p['splitters']:.2f} {p['partition']:.2f} {p['exchange']:.2f} {p['local']:.2f}{flag}")
    print(f"largest error {100 * worst:.1f} %")


def predict(path, ib_gb_per_s=45.0):
    """8 GPUs on one NVLink node (NCCL's all-to-all at the rate the run measured), and 16 to 64 GPUs
    in nodes of 8 over InfiniBand at 400 Gb/s per GPU (45 GB/s after protocol overhead): a key that
    leaves its node crosses one NIC, so the exchange takes the longer of its NVLink and its IB share."""
    run = load(path)
    m = Machine(run)
    G_run = run["gpu_count"]
    print(f"from {path} ({G_run} x {run['gpu']}); InfiniBand {ib_gb_per_s:.0f} GB/s per GPU")
    print(f"{'GPUs':>5s} {'keys/GPU':>9s} {'kind':>5s} {'scheme':>16s} {'sort':>6s} {'exch':>6s} {'total':>7s} {'GKeys/s':>8s} {'per GPU':>8s}")
    for G in (4, 8, 16, 32, 64):
        for log2n in (26, 28, 30):
            for pairs in (False, True):
                if m.sort_ms(log2n, pairs) is None:
                    continue
                n = 2.0 ** log2n
                elem = 8 if pairs else 4
                nvl = m.a2a_gb_per_s(log2n, pairs)
                if G <= 8:
                    rate = nvl
                else:
                    # Bytes per GPU: (G - 8) / G leave the node over IB, 7 / G stay on NVLink.
                    t = max(n * elem * (G - 8) / G / (ib_gb_per_s * 1e6), n * elem * 7 / G / (nvl * 1e6))
                    rate = n * elem * (G - 1) / G / 1e6 / t
                best = None
                for scheme, chunks in (("sort-first", 1), ("sort-first", 3), ("partition-first", 4), ("partition-first", 8)):
                    if scheme == "sort-first" and G > 4:
                        continue
                    p = phases(m, G, log2n, pairs, scheme, chunks, exchange_gb_per_s=rate)
                    if best is None or p["total"] < best[2]["total"]:
                        best = (scheme, chunks, p)
                scheme, chunks, p = best
                rate_total = G * n / p["total"] / 1e6
                print(f"{G:5d} {'2^%d' % log2n:>9s} {'pairs' if pairs else 'keys':>5s} {scheme + ':' + str(chunks):>16s} "
                      f"{p['local']:6.2f} {p['exchange']:6.2f} {p['total']:7.2f} {rate_total:8.1f} {rate_total / G:8.2f}")


def summary(paths):
    """The figures issue 26 asks for, from the runs given (one-process runs and one-process-per-GPU
    runs), compactly: per rank count, kind, size and keys the fastest way and its speed-up; the
    targets; the exchange against NCCL; the model's error; process per GPU against one process."""
    runs = [load(p) for p in paths]
    best = {}
    lines = []
    for run in runs:
        if run.get("processes", 1) != 1:
            continue
        G = run["gpu_count"]
        for c in run["results"]:
            if "skipped" in c:
                continue
            key = (G, c["pairs"], c["keys_per_gpu_log2"], c["keys"])
            if key not in best or c["ms"] < best[key]["ms"]:
                best[key] = c
    print(f"{'G':>2s} {'kind':5s} {'n/GPU':>5s} {'keys':9s} {'fastest way':18s} {'ms':>8s} {'GKeys/s':>8s} {'x 1 GPU':>7s} "
          f"{'exch/NCCL':>9s} {'balance':>7s}  others (ms)")
    for key in sorted(best):
        G, pairs, log2n, dist = key
        c = best[key]
        others = []
        for run in runs:
            if run.get("processes", 1) != 1 or run["gpu_count"] != G:
                continue
            for o in run["results"]:
                if "skipped" not in o and (o["pairs"], o["keys_per_gpu_log2"], o["keys"]) == (pairs, log2n, dist) and o is not c:
                    others.append(f"{o['way']} {o['ms']:.2f}")
        sp = f"{c['speedup_vs_single_gpu']:.2f}" if c.get("speedup_vs_single_gpu") else "n/a"
        print(f"{G:2d} {'pairs' if pairs else 'keys':5s} {'2^%d' % log2n:>5s} {dist:9s} {c['way']:18s} {c['ms']:8.2f} "
              f"{c['gkeys_per_s']:8.1f} {sp:>7s} {100 * c['exchange_vs_nccl_same_bytes']:8.0f}% {c['balance']:7.4f}  "
              + ", ".join(others))

    def get(G, pairs, log2n, dist="uniform"):
        return best.get((G, pairs, log2n, dist))

    print("targets (issue 26):")
    for G, pairs, log2n, what, target in ((4, False, 28, "speed-up", 3.0), (4, True, 28, "speed-up", 2.5),
                                          (2, False, 28, "speed-up", 1.7), (4, False, 30, "GKeys/s", 120.0)):
        c = get(G, pairs, log2n)
        if c is None:
            continue
        v = c.get("speedup_vs_single_gpu") if what == "speed-up" else c["gkeys_per_s"]
        if v is None:
            continue
        print(f"  {G} GPUs {'pairs' if pairs else 'keys'} 2^{log2n}/GPU {what}: {v:.2f} (target {target}) via {c['way']}")
    for G in sorted({k[0] for k in best}):
        for pairs in (False, True):
            u, s = get(G, pairs, 28), get(G, pairs, 28, "skewed")
            if u and s:
                print(f"  {G} GPUs {'pairs' if pairs else 'keys'} 2^28 skewed / uniform rate: {s['gkeys_per_s'] / u['gkeys_per_s']:.2f} (target 0.90)")
    ratios = [c["exchange_vs_nccl_same_bytes"] for c in best.values() if c["keys"] != "all-equal"]
    if ratios:
        print(f"  exchange / NCCL all-to-all of the same bytes, fastest ways: {100 * min(ratios):.0f} to {100 * max(ratios):.0f} % (target 90)")
    for run in runs:
        if run.get("processes", 1) == 1 or not run["results"]:
            continue
        G = run["gpu_count"]
        for c in run["results"]:
            if "skipped" in c:
                continue
            same = [o for r in runs if r.get("processes", 1) == 1 and r["gpu_count"] == G for o in r["results"]
                    if "skipped" not in o and (o["pairs"], o["keys_per_gpu_log2"], o["keys"], o["way"]) ==
                    (c["pairs"], c["keys_per_gpu_log2"], c["keys"], c["way"])]
            ref = f"one process {same[0]['ms']:.2f} ms ({100 * (c['ms'] / same[0]['ms'] - 1):+.1f} %)" if same else "no one-process run"
            print(f"  process per GPU, {G} GPUs {'pairs' if c['pairs'] else 'keys'} 2^{c['keys_per_gpu_log2']} {c['way']}: {c['ms']:.2f} ms; {ref}")
    errors = []
    for run in runs:
        if run.get("processes", 1) != 1 or not has_refs(run):
            continue
        m = Machine(run)
        for c in run["results"]:
            if "skipped" in c:
                continue
            p = phases(m, run["gpu_count"], c["keys_per_gpu_log2"], c["pairs"], case_scheme(c), c["chunks_run"],
                       c["moved_bytes_per_gpu"], c["splitter_rounds"])
            errors.append(p["total"] / c["ms"] - 1)
    if errors:
        inside = sum(1 for e in errors if abs(e) <= 0.15)
        print(f"  cost model: {inside} of {len(errors)} cases within 15 %, errors {100 * min(errors):+.0f} to {100 * max(errors):+.0f} %")
    print("tuning rows (kernels/tuning/distributed.cuh), fastest way on uniform keys:")
    for key in sorted(best):
        G, pairs, log2n, dist = key
        if dist != "uniform":
            continue
        c = best[key]
        scheme = "SortFirst" if c["way"].startswith("sort-first") else "PartitionFirst"
        print(f"  {{{G}, {'true' if pairs else 'false'}, {log2n}, DistributedScheme::{scheme}, {c['chunks_run']}}},"
              f"  // {c['ms']:.2f} ms")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "predict", "summary"):
        print(__doc__)
        return 2
    if argv[1] == "check":
        check(argv[2:])
    elif argv[1] == "predict":
        predict(argv[2])
    else:
        summary(argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
