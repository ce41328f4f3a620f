"""primlab's sort from Python, measured in one run on one GPU:

1. host time per call of a 2^10-key u32 sort from Python (CuPy and PyTorch arrays, with out= and
   without, stream= as an object or an int, or the current stream), against the same call from
   C++ in this process on the same arrays and stream (primlab._primlab._bench_sort_host_us; the
   call-overhead executable, --cpp, gives it in its own process too), and against cupy.sort,
   torch.sort and cuda.compute called the same way: the median over batches of 100 calls of the
   host time per call, the stream drained between batches so that the launch queue never fills.
   The rows run in ROUNDS rounds, each in another order, and each row's figure is the median of
   its rounds (one row measured once can be off by several microseconds); the parts say where
   the time goes (an array's attributes, the current stream, the workspace kept or from the pool,
   the binding called without the Python layer, a binding that does nothing, and each step of the
   binding timed in C++);
2. primlab.sort against the same sort called from C++ in this process, cupy.sort, torch.sort
   (int32 keys, its usual path) and cuda.compute.radix_sort (a prepared sorter and its temp
   storage, its fastest use) at 2^16 and 2^28 u32 keys: CUDA events around each call on one
   non-blocking stream (every library's current stream), after a warm-up, median of the runs
   (2^16: the libraries take turns over ROUNDS rounds); a call's time includes the host work the
   GPU waits for, as a Python user sees it;
3. the first call of primlab and of cuda.compute in the process (cuda.compute compiles there).

Writes one JSON (GPU, driver, CUDA, CUB, versions, date, commit, every row) to --out and prints a
table. A library that is missing or fails gets an "error" row and the run goes on.

    python3 bench/python/sort_from_python.py --cpp build/bench/call-overhead --out bench/results/x.json
"""

import argparse
import contextlib
import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

import cupy
import numpy

import primlab

SIZES = {"2^16": (1 << 16, 100, 3), "2^28": (1 << 28, 20, 1)}  # keys, timed runs per round, rounds
ROUNDS = 3  # of the host-time rows


def event_times(run, stream, reps, warmup=5):
    """CUDA-event times (ms) of run(), one call at a time on the stream."""
    for _ in range(warmup):
        run()
    stream.synchronize()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(reps):
        start.record(stream)
        run()
        end.record(stream)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return times


def summary(times):
    """Median and p10/p90 (ms) of event times."""
    times = sorted(times)
    return {"ms": statistics.median(times), "p10": times[len(times) // 10], "p90": times[9 * len(times) // 10],
            "reps": len(times)}


def host_us(run, stream, batches=100, per_batch=100, warmup=1000):
    """Median over batches of the host time per call (us)."""
    for _ in range(warmup):
        run()
    stream.synchronize()
    per_call = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(per_batch):
            run()
        t1 = time.perf_counter()
        stream.synchronize()
        per_call.append((t1 - t0) / per_batch * 1e6)
    return statistics.median(per_call)


def attempt(rows, name, measure):
    """rows[name] = measure(), or the error: a missing library or a failing call is a row."""
    try:
        rows[name] = measure()
    except Exception as error:
        rows[name] = {"error": f"{type(error).__name__}: {error}"}
        traceback.print_exc(file=sys.stderr)


def version(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def compute_sorter(keys, out, stream):
    """cuda.compute's reusable sorter with its temp storage, made once."""
    import cuda.compute as cc

    sorter = cc.make_radix_sort(d_in_keys=keys, d_out_keys=out, d_in_values=None, d_out_values=None,
                                order=cc.SortOrder.ASCENDING)
    arguments = dict(d_in_keys=keys, d_out_keys=out, d_in_values=None, d_out_values=None, num_items=len(keys),
                     stream=stream)
    temp = cupy.empty(max(sorter(temp_storage=None, **arguments), 1), cupy.uint8)
    return lambda: sorter(temp_storage=temp, **arguments)


def sorts(keys, stream):
    """name -> a function making a function that returns the event times (ms) of `reps` calls
    sorting `keys` (CuPy, u32) on the current stream."""
    out = cupy.empty_like(keys)

    def timed(make):
        return lambda: lambda reps: event_times(make(), stream, reps)

    def torch_sort():
        import torch

        t = torch.from_dlpack(keys.view(cupy.int32))
        return lambda: torch.sort(t)

    return {"primlab": timed(lambda: lambda: primlab.sort(keys, out=out)),
            "primlab's C++ call": lambda: lambda reps: primlab._primlab._bench_sort_event_ms(keys, out, stream.ptr, reps, 5),
            "cupy.sort": timed(lambda: lambda: cupy.sort(keys)),
            "torch.sort": timed(torch_sort),
            "cuda.compute": timed(lambda: compute_sorter(keys, cupy.empty_like(keys), stream))}


def rounds(rows, measures, count):
    """Runs every measure `count` times, the order turned by one each round: rows[name] is the
    median of its rounds, or its first error. Returns each measure's rounds."""
    names = list(measures)
    per_round = {name: [] for name in names}
    for r in range(count):
        for name in names[r % len(names):] + names[:r % len(names)]:
            got = {}
            attempt(got, name, measures[name])
            per_round[name].append(got[name])
    for name in names:
        values = per_round[name]
        errors = [v for v in values if isinstance(v, dict)]
        rows[name] = errors[0] if errors else statistics.median(values)
    return {name: values for name, values in per_round.items() if not any(isinstance(v, dict) for v in values)}


def without_kept_workspace(measure):
    """The measure with primlab's kept workspace off: a pool allocation and free per call."""
    def run():
        primlab._primlab.keep_workspace(False)
        try:
            return measure()
        finally:
            primlab._primlab.keep_workspace(True)
    return run


def current_stream(stream):
    """Makes `stream` the current stream of CuPy and (when installed) PyTorch."""
    context = contextlib.ExitStack()
    context.enter_context(stream)
    with contextlib.suppress(ImportError):
        import torch

        context.enter_context(torch.cuda.stream(torch.cuda.ExternalStream(stream.ptr)))
    return context


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpp", help="the call-overhead executable (the C++ baseline)")
    parser.add_argument("--out", required=True, help="the JSON to write")
    parser.add_argument("--commit", default=os.environ.get("PRIMLAB_COMMIT", "unknown"))
    args = parser.parse_args()

    rng = numpy.random.default_rng(1)
    stream = cupy.cuda.Stream(non_blocking=True)
    props = cupy.cuda.runtime.getDeviceProperties(0)
    result = {"gpu": props["name"].decode(), "driver": cupy.cuda.runtime.driverGetVersion(),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "commit": args.commit, "python": platform.python_version(), "primlab": primlab.build_info(),
              "versions": {p: version(p) for p in ("cupy-cuda13x", "torch", "cuda-cccl", "numpy")}}

    with current_stream(stream):
        # [SECTION] 3. First calls, before anything else of each library runs here.
        first = {}
        first_keys = cupy.asarray(rng.integers(0, 2**32, 1 << 16, dtype=numpy.uint32))
        stream.synchronize()

        def first_call(make):
            t0 = time.perf_counter()
            make()()
            stream.synchronize()
            return {"s": time.perf_counter() - t0}

        attempt(first, "primlab", lambda: first_call(lambda: lambda: primlab.sort(first_keys)))
        attempt(first, "cuda.compute", lambda: first_call(
            lambda: compute_sorter(first_keys, cupy.empty_like(first_keys), stream)))
        result["first_call"] = first

        # [SECTION] 1. Host time per call, 2^10 keys.
        overhead = {}
        small = cupy.asarray(rng.integers(0, 2**32, 1 << 10, dtype=numpy.uint32))
        small_out = cupy.empty_like(small)
        ext = primlab._primlab
        cupy_kind = primlab._kind(small)
        if args.cpp:
            attempt(overhead, "C++ radix_sort_keys, workspace owned, own process", lambda: json.loads(
                subprocess.run([args.cpp], capture_output=True, text=True, check=True).stdout)["host_us"])
        measures = {
            "C++ radix_sort_keys, workspace owned": lambda: ext._bench_sort_host_us(
                small, small_out, stream.ptr, False, 100, 100, 1000),
            "C++ radix_sort_keys, primlab's workspace": lambda: ext._bench_sort_host_us(
                small, small_out, stream.ptr, True, 100, 100, 1000),
            "C++ radix_sort_keys, pool workspace per call": without_kept_workspace(lambda: ext._bench_sort_host_us(
                small, small_out, stream.ptr, True, 100, 100, 1000)),
            "primlab CuPy out= stream=": lambda: host_us(lambda: primlab.sort(small, out=small_out, stream=stream), stream),
            "primlab CuPy out= stream=int": lambda: host_us(
                lambda: primlab.sort(small, out=small_out, stream=stream.ptr), stream),
            "primlab CuPy out=": lambda: host_us(lambda: primlab.sort(small, out=small_out), stream),
            "primlab CuPy out=, pool workspace per call": without_kept_workspace(
                lambda: host_us(lambda: primlab.sort(small, out=small_out), stream)),
            "primlab CuPy": lambda: host_us(lambda: primlab.sort(small), stream),
            "primlab CuPy out=, the binding called directly": lambda: host_us(
                lambda: ext.sort(small, None, small_out, cupy_kind, False, 0, None, None), stream),
            "part: a binding call with sort's arguments, nothing done": lambda: host_us(
                lambda: ext._bench_noop(small, None, small_out, cupy_kind, False, 0, None, None), stream),
            # Where the time goes.
            "part: CuPy __cuda_array_interface__": lambda: host_us(lambda: small.__cuda_array_interface__, stream),
            "part: CuPy current stream": lambda: host_us(
                lambda: cupy.cuda.get_current_stream(small.device.id).ptr, stream),
            "part: kept workspace, taken and given back": lambda: ext._bench_workspace_us(1 << 20, stream.ptr, 1000),
            "part: pool workspace, allocated and freed": without_kept_workspace(
                lambda: ext._bench_workspace_us(1 << 20, stream.ptr, 1000)),
            "cupy.sort": lambda: host_us(lambda: cupy.sort(small), stream),
            "cuda.compute prepared sorter": lambda: host_us(compute_sorter(small, small_out, stream), stream),
        }
        try:
            import torch

            t, t_out = torch.from_dlpack(small), torch.from_dlpack(small_out)
            t32 = t.view(torch.int32)
            torch_kind = primlab._kind(t)
            measures.update({
                "primlab torch out= stream=": lambda: host_us(
                    lambda: primlab.sort(t, out=t_out, stream=stream.ptr), stream),
                "primlab torch out=": lambda: host_us(lambda: primlab.sort(t, out=t_out), stream),
                "primlab torch": lambda: host_us(lambda: primlab.sort(t), stream),
                "primlab torch out=, the binding called directly": lambda: host_us(
                    lambda: ext.sort(t, None, t_out, torch_kind, False, 0, None, None), stream),
                "part: torch __cuda_array_interface__": lambda: host_us(lambda: t.__cuda_array_interface__, stream),
                "part: torch current stream": lambda: host_us(
                    lambda: torch.cuda.current_stream(t.device).cuda_stream, stream),
                "part: torch raw current stream": lambda: host_us(
                    lambda: torch._C._cuda_getCurrentRawStream(t.get_device()), stream),
                "torch.sort": lambda: host_us(lambda: torch.sort(t32), stream),
            })
        except ImportError as error:
            overhead["torch"] = {"error": f"ImportError: {error}"}
        result["host_us_rounds_2^10"] = rounds(overhead, measures, ROUNDS)
        # The binding's steps one by one, timed in C++ (primlab._primlab._bench_parts_us).
        parts = {}
        protocol = stream if hasattr(stream, "__cuda_stream__") else None
        attempt(parts, "CuPy", lambda: ext._bench_parts_us(small, small_out, protocol, 1000))
        if "t" in locals():
            attempt(parts, "torch", lambda: ext._bench_parts_us(t, t_out, protocol, 1000))
        result["host_us_binding_steps_2^10"] = parts

        def compute_one_shot():
            import cuda.compute as cc

            return host_us(lambda: cc.radix_sort(d_in_keys=small, d_out_keys=small_out, num_items=len(small),
                                                 order=cc.SortOrder.ASCENDING, stream=stream),
                           stream, batches=50, warmup=200)

        attempt(overhead, "cuda.compute.radix_sort", compute_one_shot)
        # Each primlab row against the C++ call of the same round, the median over the rounds: the
        # host's speed can change between rounds by more than the difference measured.
        per_round = result["host_us_rounds_2^10"]
        base = per_round.get("C++ radix_sort_keys, workspace owned")
        if base:
            result["primlab_python_minus_cpp_us"] = {
                k: statistics.median(v - b for v, b in zip(values, base))
                for k, values in per_round.items() if k.startswith("primlab")}
        result["host_us_per_call_2^10"] = overhead

        # [SECTION] 2. Time per call at 2^16 and 2^28.
        table = {}
        for label, (n, reps, turns) in SIZES.items():
            keys = cupy.asarray(rng.integers(0, 2**32, n, dtype=numpy.uint32))
            stream.synchronize()
            runs = {}
            for name, make in sorts(keys, stream).items():
                attempt(runs, name, make)  # a library that is missing is an error row
            times = {name: [] for name in runs if not isinstance(runs[name], dict)}
            rows = {name: run for name, run in runs.items() if isinstance(run, dict)}
            names = list(times)
            for r in range(turns):
                for name in names[r % len(names):] + names[:r % len(names)]:
                    got = {}
                    attempt(got, name, lambda name=name: runs[name](reps))
                    if isinstance(got[name], dict):
                        rows[name] = got[name]
                    elif name not in rows:
                        times[name] += got[name]
            for name in names:
                if name not in rows:
                    rows[name] = summary(times[name])
            if "ms" in rows.get("primlab", {}):
                for row in rows.values():
                    if "ms" in row:
                        row["primlab_speedup"] = row["ms"] / rows["primlab"]["ms"]
            table[label] = rows
            keys = runs = None
            cupy.get_default_memory_pool().free_all_blocks()
        result["sort_u32_ms"] = table

    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print_tables(result)


def print_tables(result):
    """The README's tables: time per sort call, then host time per call of a 2^10 sort."""
    v = result["versions"]
    print(f"== sort from Python: {result['gpu']}, primlab {result['primlab']['version']} (CUB {result['primlab']['cub']}), "
          f"CuPy {v['cupy-cuda13x']}, torch {v['torch']}, cuda-cccl {v['cuda-cccl']}, {result['date']}")
    names = ["primlab", "primlab's C++ call", "cupy.sort", "torch.sort", "cuda.compute"]
    print("| u32 keys | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for label, rows in result["sort_u32_ms"].items():
        cells = []
        for name in names:
            row = rows.get(name, {})
            if "ms" not in row:
                cells.append("error")
                continue
            time_text = f"{row['ms'] * 1000:.1f} us" if row["ms"] < 1 else f"{row['ms']:.3f} ms"
            if name == "primlab's C++ call":  # what the Python call adds to it
                extra = (rows["primlab"]["ms"] - row["ms"]) * 1000 if "ms" in rows.get("primlab", {}) else None
                cells.append(time_text + (f" (Python +{extra:.1f} us)" if extra is not None else ""))
                continue
            cells.append(time_text + ("" if name == "primlab" else f" ({row['primlab_speedup']:.2f}x)"))
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("host us per call, 2^10 u32 keys:")
    for name, value in result["host_us_per_call_2^10"].items():
        extra = result.get("primlab_python_minus_cpp_us", {}).get(name)
        text = f"{value:.2f}" + (f" (+{extra:.2f} over C++)" if extra is not None else "") if isinstance(value, float) \
            else value["error"][:90]
        print(f"  {name:46} {text}")
    steps = result.get("host_us_binding_steps_2^10", {})
    if steps:
        print("the binding's steps, host us each (timed in C++):")
        for library, value in steps.items():
            if "error" in value:
                print(f"  {library:8} {value['error'][:90]}")
                continue
            print(f"  {library:8} " + ", ".join(f"{name} {us:.2f}" for name, us in value.items()))
    for name, value in result["first_call"].items():
        print(f"  first call {name:35} " + (f"{value['s']:.3f} s" if "s" in value else value["error"][:90]))

if __name__ == "__main__":
    main()
