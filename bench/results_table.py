#!/usr/bin/env python3
"""Prints the README's results table (markdown) from a bench results JSON.
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

def main(path):
    d = json.load(open(path))
    rows = {(r["primitive"], r["impl"], r["type"], r["n"]): r for r in d["results"]}
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
