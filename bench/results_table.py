#!/usr/bin/env python3
"""Prints the README's results table (markdown) from a bench results JSON (with rows of a newer
   CUB, the table of the sort, partition and scan targets against the faster CUB).
   python3 bench/results_table.py bench/results/nvidia-h200-2026-11-22.json"""
import json, sys

TARGETS = [  # (primitive, type, n, CUB call, target)
    ("reduce_sum", "u32", 1 << 28, "DeviceReduce::Sum", 1.00),
    ("scan_exclusive", "u32", 1 << 28, "DeviceScan::ExclusiveSum", 1.25),
    ("select_if", "u32", 1 << 28, "DeviceSelect::If (keep 50 %)", 1.25),
    ("histogram_even", "u32", 1 << 28, "DeviceHistogram::HistogramEven, 256 bins [0, 2^32)", 3.0),
    ("histogram_even", "u8", 1 << 28, "DeviceHistogram::HistogramEven, 256 bins", 1.3),
    ("scan_exclusive", "u32", 1 << 16, "DeviceScan::ExclusiveSum (latency)", 1.0),
    ("reduce_sum", "u32", 1 << 16, "DeviceReduce::Sum (latency)", 1.0),
]

# The sort, partition and scan targets, against the faster of the toolkit's CUB and a newer one
# (rows "cub" and "cub-3.6" of a bench built with PRIMLAB_CCCL_INCLUDE).
NEWEST_TARGETS = [  # (primitive, type, n, target)
    ("sort_keys", "u32", 1 << 28, 1.30), ("sort_keys", "f32", 1 << 28, 1.25), ("sort_keys", "u64", 1 << 28, 1.20),
    ("sort_pairs", "u32", 1 << 28, 1.25), ("sort_pairs", "u64", 1 << 28, 1.20),
    ("radix_partition_keys", "u32", 1 << 28, 1.50), ("scan_exclusive", "u32", 1 << 28, 1.25),
    ("scan_exclusive", "f32", 1 << 28, 1.25), ("histogram_even", "u8", 1 << 28, 2.0),
    ("sort_keys", "u32", 1 << 16, 1.5), ("scan_exclusive", "u32", 1 << 16, 1.5), ("reduce_sum", "u32", 1 << 16, 1.5),
]

def newest_table(d, rows):
    print(f"{d['gpu']}, CUDA {d['cuda_version']}, CUB {d.get('cub', '?')} and {d.get('cub_newer', '?')}, "
          f"commit {d['commit']}, {d['date']}; copy {d['copy_gbps']:.0f} GB/s.\n")
    print("| primitive | n | primlab ms | CUB ms | newer CUB ms | ratio to the faster | target | met |")
    print("|---|---|---|---|---|---|---|---|")
    for prim, ty, n, target in NEWEST_TARGETS:
        p, c, c2 = (rows.get((prim, impl, ty, n)) for impl in ("primlab", "cub", "cub-3.6"))
        if not p or not c or not c2:
            continue
        ratio = min(c["median_ms"], c2["median_ms"]) / p["median_ms"]
        print(f"| {prim} {ty} | 2^{n.bit_length() - 1} | {p['median_ms']:.4f} | {c['median_ms']:.4f} | "
              f"{c2['median_ms']:.4f} | **{ratio:.2f}** | >= {target:.2f} | {'yes' if ratio >= target else 'no'} |")

def main(path):
    d = json.load(open(path))
    rows = {(r["primitive"], r["impl"], r["type"], r["n"]): r for r in d["results"]}
    if any(impl == "cub-3.6" for (_, impl, _, _) in rows):
        newest_table(d, rows)
        return
    print(f"{d['gpu']}, CUDA {d['cuda_version']}, driver {d['driver']}, commit {d['commit']}, "
          f"{d['date']}; copy {d['copy_gbps']:.0f} GB/s.\n")
    print("| primitive | n | CUB call | primlab ms | CUB ms | primlab GB/s | ours/CUB | target | met |")
    print("|---|---|---|---|---|---|---|---|---|")
    for prim, ty, n, call, target in TARGETS:
        p, c = rows.get((prim, "primlab", ty, n)), rows.get((prim, "cub", ty, n))
        if not p or not c:
            continue
        ratio = c["median_ms"] / p["median_ms"]
        print(f"| {prim} {ty} | 2^{n.bit_length() - 1} | {call} | {p['median_ms']:.4f} | "
              f"{c['median_ms']:.4f} | {p['gbps']:.0f} | **{ratio:.2f}** | >= {target:.2f} | "
              f"{'yes' if ratio >= target else 'no'} |")
    print("\nEvery primlab row at 2^28 (ours/CUB; Thrust beside):\n")
    print("| primitive | type | primlab ms | CUB ms | Thrust ms | ours/CUB |")
    print("|---|---|---|---|---|---|")
    for (prim, impl, ty, n), r in rows.items():
        if impl != "primlab" or n != 1 << 28:
            continue
        c = rows.get((prim, "cub", ty, n)); t = rows.get((prim, "thrust", ty, n))
        fmt = lambda x: f"{x['median_ms']:.4f}" if x else "-"
        print(f"| {prim} | {ty} | {r['median_ms']:.4f} | {fmt(c)} | {fmt(t)} | {r.get('ratio_to_cub', 0):.2f} |")

if __name__ == "__main__":
    main(sys.argv[1])
