#!/usr/bin/env python3
"""Fuzz test of primlab's command-line tools and file loaders (ctest fuzz_cli, label cpu).

Runs `trace`, `render`, `perf`, the `primlab` window (with --smoke-frames 1, under the Xvfb that
ctest starts) and `bench` on seeded, generated argument vectors: unknown flags, missing values, huge and negative numbers, non-UTF-8 bytes, printf directives, paths in
missing or unwritable folders. Feeds the loaders (presets JSON, bench results and perf baselines
JSON, the window's saved placement and layout) mutated and truncated files.

A case passes when the tool exits 0, or exits 1 or 2 with exactly one line on stderr. It fails
on a signal, a timeout, a sanitizer report, any other exit code, or a stated expectation (exit 2
for arguments that no tool may accept, files that must exist after success). The grammar cases
hold the five tools to one command-line grammar: the same flag names, sizes and --list printer,
and exit 2 with one line for every malformed or out-of-range value. The same seed gives the same
cases.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import time

SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"runtime error:", b"LeakSanitizer",
                     b"ERROR: UndefinedBehaviorSanitizer")

# [SECTION] Value pools
NUMBERS = [b"-1", b"0", b"-2147483648", b"-2147483649", b"2147483647", b"2147483648", b"4294967295",
           b"4294967296", b"-9223372036854775809", b"9223372036854775807", b"99999999999999999999",
           b"1e309", b"-1e309", b"nan", b"inf", b"0x7fffffff", b"1.5", b"2^62", b"1<<63", b"2^-1"]
STRINGS = [b"", b" ", b"%n%n%n%n", b"%s%s%s%s%s", b"%d%n%x%p", b"%99999999d", b"\xff\xfe\xfd",
           b"\xc3\x28\xa0\xa1", b"a\nb", b"\r\x1b[31m\x07", b"-", b"--", b"x" * 5000,
           "Gr\u00f6\u00dfe \u2211 \U0001f600".encode()]
UNKNOWN_FLAGS = [b"--bogus", b"-Z", b"---", b"--\xff\xfe", b"--%n%s", b"--n-x"]
STRAY = [b"stray", b"-", b"\xff\xfe", b"%n%s", b"a\nb"]  # positional arguments, which no tool takes

# Per-tool options: name -> (good values, bad values). Good values keep a case fast; a value of
# None marks a flag. "PATH" values are filled with the case's paths.
STEP_OPTIONS = {
    b"--preset": ([b"blelloch-8"], [b"nope", b"blelloch-8 "]),
    b"--algo": ([b"scan-naive", b"scan-blelloch"], [b"nope", b"scan-naive,scan-blelloch"]),  # + `trace --list`
    b"--input": ([b"3 1 7 0 4 1 6 3", b"1", b"-5 2 -7", b"0.5 1e30 -0", b"4294967295 0"],
                 [b"1 x 2", b"1,,2", b"99999999999999999999", b"nan inf", b"1e99999",
                  b" ".join([b"7"] * 5000)]),
    b"--n": ([b"1", b"2", b"16", b"33", b"2^6", b"1<<5", b"4096"],
             [b"0", b"4097", b"2^63", b"1<<62", b"2^", b"3^4", b"2^99", b"2^2..2^4", b"4,8"]),
    b"--dist": ([b"random", b"sorted", b"reversed", b"all-equal", b"few-distinct"], [b"typed", b"nope"]),
    b"--type": ([b"i32", b"u32", b"f32", b"int", b"uint", b"float"], [b"double", b"u8"]),
    b"--block": ([b"1", b"4", b"8", b"32", b"1024"], [b"0", b"1025", b"2^40", b"3^2"]),
    b"--seed": ([b"0", b"1", b"4294967295"], []),
    b"--inclusive": (None, []), b"--no-offsets": (None, []), b"--descending": (None, []), b"--kv": (None, []),
    b"--digit-bits": ([b"2", b"4", b"8"], [b"1", b"9", b"16", b"32"]),
    b"--bins": ([b"2", b"16", b"256", b"4096"], [b"1", b"65536"]),
    b"--digit-start": ([b"0", b"4", b"28", b"31"], [b"32"]),
    b"--predicate": ([b"0", b"1", b"2"], [b"3"]),
    b"--threshold": ([b"0", b"5", b"-2147483648"], []),
    b"--variant": ([b"0", b"1", b"2", b"3"], [b"7"]),
    b"--backend": ([b"auto", b"cpu", b"cuda"], [b"gpu"]),
}
SIZES = [b"64x64", b"100x80", b"320x240"], [b"0x0", b"63x64", b"-64x64", b"8193x64", b"64x", b"x64",
                                            b"64x64x", b"64x64 ", b"99999999999x64"]
TOOLS = {
    "trace": {**STEP_OPTIONS, b"--list": (None, []), b"--json": (None, []), b"--rows": (None, [])},
    "render": {
        **STEP_OPTIONS, b"--list": (None, []),
        b"--out": ([b"PATH"], []), b"--race": ([b"scan-naive,scan-blelloch", b"reduce-naive,reduce-shared"],
                                             [b"scan-naive", b"scan-naive,nope", b",", b"scan-naive,"]),
        b"--step": ([b"0", b"1", b"3", b"100"], []), b"--all": (None, []), b"--size": SIZES,
        b"--view-only": (None, []), b"--gif": ([b"PATH"], []), b"--delay": ([b"0", b"10", b"65535"], [b"65536"]),
    },
    "primlab": {
        **STEP_OPTIONS, b"--list": (None, []),
        b"--tab": ([b"step", b"race", b"perf"], [b"nope", b"Step"]),
        b"--race": ([b"scan-naive,scan-blelloch"], [b"scan-naive,nope", b"scan-naive"]),
        b"--step": ([b"0", b"2", b"1000"], []), b"--screenshot": ([b"PATH"], []), b"--perf-sweep": (None, []),
    },
    "perf": {
        b"--prim": ([b"scan_exclusive", b"reduce_sum"], [b"nope", b"scan"]),  # + `perf --list`
        b"--impl": ([b"cpu", b"cpu-par", b"cpu,cpu-par", b"cpu,cpu"], [b"nope", b",", b"cpu,nope"]),
        b"--type": ([b"u32", b"i32", b"f32", b"u8", b"f64"], [b"int", b"u16"]),
        b"--n": ([b"2^4", b"2^0..2^3", b"2^6..2^6", b"1000", b"16,2^5", b"1<<4"],
                 [b"2^35", b"2^-1", b"2^", b"2^99999999999", b"2^6..2^4", b"2^1..2^2..2^3", b"0", b"2^4.."]),
        b"--n-factor": ([b"2", b"4"], [b"3", b"0"]), b"--step": ([b"1", b"2"], [b"0", b"5"]),
        b"--block-sweep": (None, []), b"--block-n": ([b"4", b"10"], [b"35"]),
        b"--block": ([b"0", b"32", b"1024", b"2^8"], [b"1025"]), b"--items": ([b"0", b"8", b"64"], [b"65"]),
        b"--runs": ([b"0", b"1", b"3"], [b"100001"]),
        b"--host-max-n": ([b"0", b"1024", b"2^10"], [b"17179869185", b"2^35"]),
        b"--out": ([b"PATH"], []), b"--size": ([b"320x240", b"400x300"], SIZES[1]),
        b"--baseline": ([b"PATH"], []), b"--live": (None, []), b"--cancel-after": ([b"0", b"0.001"], []),
        b"--no-png": (None, []), b"--list": (None, []),
    },
    "bench": {
        b"--prim": ([b"reduce_sum", b"scan_exclusive,reduce_sum"], [b"nope", b",", b"scan-naive"]),
        b"--algo": ([b"reduce_sum"], [b"nope"]),  # the old spelling of --prim
        b"--impl": ([b"cpu", b"primlab,cub"], [b"nope"]),
        b"--type": ([b"u32", b"f64,u8", b"uint"], [b"u16", b"u32,"]),
        b"--n": ([b"2^10", b"1000", b"0", b"2^40", b"2^4..2^6", b"16,2^5"], [b"2^41", b"2^6..2^4", b"0..2^4", b"1<<64"]),
        b"--n-factor": ([b"2", b"4"], [b"3"]),
        b"--block": ([b"0", b"33", b"1024"], [b"1025"]), b"--items": ([b"0", b"3", b"64"], [b"65"]),
        b"--runs": ([b"0", b"1"], [b"100001"]), b"--host-runs": ([b"0", b"1"], [b"1001"]),
        b"--host-max-n": ([b"0", b"1024", b"2^10"], [b"2^41"]), b"--out": ([b"PATH"], []),
        b"--json": ([b"PATH"], []),  # the old spelling of --out
        b"--commit": ([b"abc"], []), b"--driver": ([b"x"], []), b"--list": (None, []),
    },
}
# The options every generated case starts from, where a successful case is quick ("PATH": the case's
# folder or a file in it).
BASE = {
    "trace": {},
    "render": {b"--size": b"64x64", b"--n": b"8", b"--out": b"PATH"},
    "primlab": {b"--n": b"8"},
    "perf": {b"--impl": b"cpu", b"--n": b"2^4", b"--runs": b"1", b"--no-png": None, b"--out": b"PATH"},
    "bench": {b"--prim": b"reduce_sum", b"--impl": b"cpu", b"--n": b"2^10", b"--runs": b"1"},
}
# Case counts per tool (primlab starts a GL context per case: keep it modest).
COUNTS = {"trace": 200, "render": 60, "perf": 40, "primlab": 20, "bench": 80}


class Case:
    def __init__(self, group, argv, cwd, expect=(0, 1, 2), env=None, check=None):
        self.group, self.argv, self.cwd, self.expect, self.env, self.check = group, argv, cwd, expect, env or {}, check


# [SECTION] Argument vectors
def paths(case_dir, work):
    """Output paths: good ones in the case's folder, and ones no tool can write."""
    c, w = case_dir.encode(), work.encode()
    return [c + b"/out.png", b"out.png", c + b"/f_%03d.png", c, c + b"/missing/dir/out.png", w + b"/readonly/out.png",
            b"/dev/null/out.png", b"/proc/out.png", c + b"/%n%s%d.png", c + b"/%d%d.png", b""]


def pick_value(rng, name, good, bad, case_dir, work, baselines):
    if good is not None and b"PATH" in good:
        return rng.choice(baselines if name == b"--baseline" else paths(case_dir, work))
    roll = rng.random()
    if roll < 0.6 and good:
        return rng.choice(good)
    if roll < 0.8 and bad:
        return rng.choice(bad)
    return rng.choice(NUMBERS + STRINGS)


def generate_argv(rng, tool, case_dir, work, names, baselines):
    """A base argv with 1 to 3 mutations. Returns (argv, exit codes allowed)."""
    spec = TOOLS[tool]
    options = dict(BASE[tool])  # name -> value (None for a flag), in order
    for k, v in options.items():
        if v == b"PATH":
            options[k] = case_dir.encode() + (b"/out.png" if tool != "perf" else b"/perf")
    extra, expect = [], (0, 1, 2)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        name = rng.choice(sorted(spec))
        good, bad = spec[name]
        if name in names:
            good = names[name]
        if op < 0.07:
            extra.append(rng.choice(UNKNOWN_FLAGS))
            expect = (2,)
        elif op < 0.12:
            extra.append(rng.choice(STRAY))
            expect = (2,)
        elif op < 0.18 and good is not None and not any(a in spec for a in extra):
            options.pop(name, None)
            extra.append(name)  # a value option given last, its value missing
            expect = (2,)
        elif op < 0.25:
            options.pop(rng.choice(sorted(options)) if options else name, None)
        elif good is None:
            options[name] = None
        else:
            options[name] = pick_value(rng, name, good, bad, case_dir, work, baselines)
    # The measuring tools' CPU rows stay small (their default sizes reach 2^28) unless a case sets
    # the limit itself.
    argv = [b"--host-max-n", b"2^16"] if tool in ("perf", "bench") and b"--host-max-n" not in options else []
    for k, v in options.items():
        argv += [k] if v is None else [k, v]
    # The option without a value goes last (CLI11 would take a following option as its value).
    argv += sorted(extra, key=lambda a: a in spec)
    return argv, expect


# [SECTION] Files
JSON_EXTREMES = [None, True, -1, 0, 2 ** 31, -2 ** 31 - 1, 2 ** 63, 2 ** 64 - 1, -2 ** 63, 1e308, -1e308, 1.5,
                 1e-320, "", "%n%s%n", "\udcff", "x" * 10000, [], {}, "__HUGE__", "__DEEP__", "-1", "4096",
                 "2^62", "99999999999999999999", "1<<30", "scan-naive", "1 2 3"]
MAX_FILE = 1 << 20  # mutated files are cut here (repeated copies could grow without bound)


def json_paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from json_paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from json_paths(v, prefix + (i,))


def mutate_json(rng, doc):
    for _ in range(rng.randint(1, 3)):
        targets = list(json_paths(doc))[1:]
        if not targets:
            break
        path = rng.choice(targets)
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        roll = rng.random()
        if roll < 0.15:
            del parent[path[-1]]
        elif roll < 0.25 and isinstance(parent, list):
            parent.extend([parent[path[-1]]] * rng.choice([2, 100, 3000]))
        else:
            parent[path[-1]] = rng.choice(JSON_EXTREMES)
    text = json.dumps(doc).replace('"__HUGE__"', "1e400").replace('"__DEEP__"', "[" * 5000 + "]" * 5000)
    return text.encode("utf-8", "surrogatepass")[:MAX_FILE]


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(data) + 1)
        op = rng.randrange(4)
        if op == 0:
            del data[at:]
        elif op == 1:
            for _ in range(rng.randint(1, 8)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
        elif op == 2:
            data[at:at] = rng.choice(STRINGS + NUMBERS + [b"{", b"[", b"\"", b"\x00"])
        else:
            del data[at:at + rng.randint(1, 64)]
    return bytes(data)


def mutated_files(rng, seeds, count, folder, suffix):
    """count mutated copies of the seed documents, plus the edge files every loader must take."""
    os.makedirs(folder, exist_ok=True)
    files = []
    edge = [b"", b"\xef\xbb\xbf", b"null", b"[]", b"{}", b"[" * 100000, b"\xff" * 64]
    for i in range(count):
        seed = rng.choice(seeds)
        if i < len(edge):
            data = edge[i]
        elif rng.random() < 0.5:
            data = mutate_json(rng, json.loads(seed))
        else:
            data = mutate_bytes(rng, seed)
        path = os.path.join(folder, "%03d%s" % (i, suffix))
        with open(path, "wb") as f:
            f.write(data)
        files.append(path.encode())
    return files + [folder.encode(), os.path.join(folder, "missing.json").encode()]


# [SECTION] Running
def uses_gl(argv, binaries):
    """Whether a case opens a GL context (the window, `render`, `perf` without --no-png)."""
    tool = argv[0]
    return tool in (binaries["render"], binaries["primlab"]) or (
        tool == binaries["perf"] and not any(a in (b"--no-png", "--no-png", b"--list", "--list") for a in argv))


def run_case(case, timeout, binaries):
    """(None when the case passes, else why it failed; the finished process)."""
    os.makedirs(case.cwd, exist_ok=True)
    env = dict(os.environ, **case.env)
    if uses_gl(case.argv, binaries):
        # Leak checks stay on for everything but GL: Mesa's driver (swrast_dri.so) is unloaded at
        # eglTerminate and glfwTerminate while its globals still hold allocations, which LSan then
        # reports from an "<unknown module>" that no suppression can name.
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    started = time.monotonic()
    try:
        p = subprocess.run(case.argv, cwd=case.cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang: no exit within %d s" % timeout, None
    took = time.monotonic() - started
    err = p.stderr
    if p.returncode < 0:
        return "killed by signal %d" % -p.returncode, p
    if any(r in err for r in SANITIZER_REPORTS):
        return "sanitizer report", p
    if p.returncode not in case.expect:
        return "exit %d, expected one of %s" % (p.returncode, case.expect), p
    if p.returncode != 0:
        lines = err.rstrip(b"\n").split(b"\n")
        if not err.endswith(b"\n") or len(lines) != 1 or not lines[0].strip():
            return "exit %d with %d stderr lines (one expected)" % (p.returncode, len(lines)), p
    if case.check:
        why = case.check(p)
        if why:
            return why, p
    if took > timeout / 2:
        print("slow (%.0f s): %r" % (took, case.argv[1:]))
    return None, p


def list_names(argv, stop):
    """The first word of each row of a --list output (rows are indented under "title:" lines), up to
    a title starting with `stop`."""
    out = subprocess.run(argv, capture_output=True, check=True).stdout.split(b"\n")
    names = []
    for line in out:
        if stop and line.startswith(stop):
            break
        if line.startswith(b"  ") and line.strip():
            names.append(line.split()[0])
    return names


# [SECTION] Cases
TOOL_NAMES = ("trace", "render", "perf", "primlab", "bench")


def seed_files(args, work):
    """The loaders' seeds (a fresh perf export, saved bench results, the shipped presets) and the
    mutated baselines that `perf --baseline` cases take."""
    seed_dir = os.path.join(work, "seed")
    subprocess.run([args.perf, "--impl", "cpu", "--n", "2^4..2^6", "--runs", "1", "--no-png", "--out", seed_dir],
                   capture_output=True, check=True)
    results_dir = os.path.join(args.source, "bench", "results")
    results = [open(os.path.join(seed_dir, "perf-scan_exclusive-u32.json"), "rb").read()] + [
        open(os.path.join(results_dir, f), "rb").read() for f in sorted(os.listdir(results_dir))[:2]]
    presets = open(os.path.join(args.source, "assets", "presets.json"), "rb").read()
    baselines = mutated_files(random.Random("%d-files" % args.seed), results, 40, os.path.join(work, "baselines"),
                              ".json")
    return results, presets, baselines


def tool_cases(args, binaries, work, tools, baselines, count):
    names = {}  # every algorithm and primitive as a good value, where the listing tools are given
    if args.trace:
        names = {t: {b"--algo": list_names([args.trace, "--list"], b"presets")} for t in ("trace", "render", "primlab")}
    if args.perf:
        names["perf"] = {b"--prim": sorted(set(list_names([args.perf, "--list"], None)))}
        names["bench"] = {b"--prim": names["perf"][b"--prim"]}
    cases = []
    for tool in tools:
        rng = random.Random("%d-%s" % (args.seed, tool))
        for i in range(count(tool)):
            case_dir = os.path.join(work, tool, "%03d" % i)
            argv, expect = generate_argv(rng, tool, case_dir, work, names.get(tool, {}), baselines)
            env = {}
            if tool == "primlab":
                argv = [b"--smoke-frames", b"1"] + argv
                env["XDG_CONFIG_HOME"] = os.path.join(case_dir, "config")
            cases.append(Case(tool, [binaries[tool]] + argv, case_dir, expect, env))
    return cases


def loader_cases(args, work, results, presets, baselines, count):
    """Presets and results through the loader driver, baselines through `perf`."""
    rng = random.Random("%d-loaders" % args.seed)
    cases = []
    for path in mutated_files(rng, [presets], count, os.path.join(work, "presets"), ".json"):
        cases.append(Case("load presets", [args.load, "presets", path], work))
    for path in mutated_files(rng, results, count, os.path.join(work, "results"), ".json"):
        cases.append(Case("load results", [args.load, "results", path], work))
    for i, path in enumerate(baselines):
        case_dir = os.path.join(work, "baseline", "%03d" % i)
        png = [] if i % 4 else [b"--size", b"320x240"]  # every fourth one draws the plots with it
        argv = [b"--impl", b"cpu", b"--n", b"2^4..2^6", b"--runs", b"1", b"--out", case_dir.encode(),
                b"--baseline", path] + (png or [b"--no-png"])
        cases.append(Case("perf --baseline", [args.perf] + argv, case_dir))
    return cases


def window_config_cases(args, work, count):
    """The window's saved placement and layout, mutated (the first case: empty files)."""
    rng = random.Random("%d-window" % args.seed)
    seeds = [b"100 80 800 600\n", b"[Window][Debug##Default]\nPos=60,60\nSize=400,400\nCollapsed=0\n"]
    cases = []
    for i in range(count):
        case_dir = os.path.join(work, "window", "%03d" % i)
        config = os.path.join(case_dir, "config", "primlab")
        os.makedirs(config)
        for name, seed in zip(("window.txt", "imgui.ini"), seeds):
            with open(os.path.join(config, name), "wb") as f:
                f.write(b"" if i == 0 else mutate_bytes(rng, seed) if rng.random() < 0.7 else
                        rng.choice(NUMBERS + STRINGS))
        cases.append(Case("primlab config", [args.primlab, "--smoke-frames", "1"], case_dir,
                          env={"XDG_CONFIG_HOME": os.path.join(case_dir, "config")}))
    return cases


# [SECTION] Main
def run_all(cases, args, binaries, work):
    """Runs the cases; prints a summary per group and every failure. Returns the failure count."""
    started = time.monotonic()
    failures, counts = [], {}
    log_path = os.path.join(work, "cases.log")  # every case, its exit code and stderr's last line
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool, open(log_path, "w") as log:
        for case, (why, p) in zip(cases, pool.map(lambda c: run_case(c, args.timeout, binaries), cases)):
            key = (case.group, "fail" if why else "exit %d" % p.returncode)
            counts[key] = counts.get(key, 0) + 1
            last = p.stderr.rstrip(b"\n").split(b"\n")[-1] if p else b""
            log.write("%s | %s | %r | %r\n" % (case.group, why or "exit %d" % p.returncode, case.argv[1:], last))
            if why:
                failures.append((case, why, p))
    for group in dict.fromkeys(c.group for c in cases):
        parts = ["%s %d" % (k[1], v) for k, v in sorted(counts.items()) if k[0] == group]
        print("%-16s %4d cases: %s" % (group, sum(v for k, v in counts.items() if k[0] == group), ", ".join(parts)))
    print("%d cases in %.0f s, %d failed (each case: %s)" % (len(cases), time.monotonic() - started, len(failures),
                                                         log_path))
    for case, why, p in failures[:40]:
        print("\nFAIL [%s] %s\n  argv: %r\n  cwd: %s" % (case.group, why, case.argv, case.cwd))
        if p is not None:
            print("  stderr (last 1500 bytes):\n" + p.stderr[-1500:].decode("utf-8", "replace"))
    return len(failures)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", required=True, help="scratch folder (emptied first)")
    ap.add_argument("--source", required=True, help="the source tree (assets/presets.json, bench/results)")
    for tool in TOOL_NAMES:
        ap.add_argument("--" + tool, default="", help="the %s binary (empty: its cases are skipped)" % tool)
    ap.add_argument("--load", default="", help="the loader driver, primlab_fuzz_load")
    ap.add_argument("--only", default="", help="comma-separated groups to run: tools, load (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every case count")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per case before it counts as a hang")
    args = ap.parse_args()

    work = os.path.abspath(args.work)
    if os.path.isdir(work):
        for root, dirs, _ in os.walk(work):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "readonly"))
    os.chmod(os.path.join(work, "readonly"), stat.S_IRUSR | stat.S_IXUSR)

    wanted = set(args.only.split(",")) if args.only else set(TOOL_NAMES) | {"load"}
    binaries = {t: getattr(args, t) if t in wanted else "" for t in TOOL_NAMES}
    skipped = []
    if "bench" in wanted and not args.bench:
        skipped.append("bench: no bench binary given: its cases are skipped")
    if "primlab" in wanted and args.primlab and not os.environ.get("DISPLAY"):
        skipped.append("primlab: no display (xvfb-run not found): its cases are skipped")
        binaries["primlab"] = ""
    tools = [t for t in TOOL_NAMES if binaries[t]]
    count = lambda k: max(1, int(COUNTS[k] * args.scale))

    cases = []
    results, presets, baselines = seed_files(args, work) if args.perf and wanted & {"perf", "load"} else ([], b"", [])
    cases += tool_cases(args, binaries, work, tools, baselines, count)
    if "load" in wanted and args.load and args.perf:
        cases += loader_cases(args, work, results, presets, baselines, count("trace") // 2)
    if binaries["primlab"]:
        cases += window_config_cases(args, work, count("primlab") // 2)
    cases += regression_cases(binaries, work)
    cases += grammar_cases(binaries, work)
    for line in skipped:
        print("SKIPPED " + line)
    return 1 if run_all(cases, args, binaries, work) else 0


# [SECTION] The issue's cases, with their exact expectations
def regression_cases(b, work):
    d = os.path.join(work, "regression")
    env = {"XDG_CONFIG_HOME": os.path.join(d, "config")}

    def files_exist(*names):
        return lambda p: next(("%s was not written" % f for f in names if not os.path.isfile(os.path.join(d, f))),
                              None)

    def stdout_has(text):
        return lambda p: None if text in p.stdout else "stdout lacks %r" % text

    # --backend cuda is an error (exit 2, one line) where no CUDA device runs, never a silent fallback.
    cuda = bool(b["trace"]) and b'"CUDA: ' in subprocess.run([b["trace"], "--n", "2", "--json"],
                                                             capture_output=True).stdout
    backend_cuda = (["--backend", "cuda", "--n", "4"], (0,) if cuda else (2,), None)
    odd = b"%s%n\xff\xfe"  # printf directives and bytes that are not UTF-8, in arguments and paths
    missing = os.path.join(d, "missing").encode() + b"/" + odd
    table = {
        "render": [(["--algo", "scan-naive", "--n", "8", "--all", "--out", "frames%s%s%n%d.png"], (2,), None),
                   (["--algo", "scan-naive", "--n", "4", "--all", "--size", "64x64", "--out", "f_%03d_%%.png"], (0,),
                    files_exist("f_000_%.png", "f_001_%.png")),
                   (["--n", "4", "--size", "64x64", "--out", "/dev/null/x.png"], (2,), None),
                   ([b"--n", b"4", b"--size", b"64x64", b"--out", missing + b"/x.png"], (2,), None),
                   ([b"--n", b"4", b"--size", b"64x64", b"--out", b"f" + odd + b".png"], (0,), None),
                   (backend_cuda[0] + ["--size", "64x64", "--out", "b.png"],) + backend_cuda[1:]],
        "trace": [(["--seed", "-1"], (2,), None), (["--algo", "a\nb"], (2,), None), backend_cuda,
                  ([b"--algo", odd], (2,), None), ([b"--input", b"1 " + odd], (2,), None),
                  ([b"--seed", odd], (2,), None), ([b"--preset", odd], (2,), None), ([odd], (2,), None)],
        "perf": [(["--baseline", os.path.join(d, "missing.json"), "--no-png"], (2,), None),
                 (["--n", "2^99999999999", "--no-png"], (2,), None),
                 ([b"--impl", b"cpu", b"--n", b"2^4", b"--no-png", b"--baseline", missing + b".json"], (2,), None),
                 ([b"--impl", odd, b"--no-png"], (2,), None)],
        "primlab": [(["--screenshot", os.path.join(d, "missing", "x.png"), "--smoke-frames", "1"], (2,), None),
                    (["--race", "scan-naive,nope", "--smoke-frames", "1"], (2,), None),
                    (["--tab", "nope", "--smoke-frames", "1"], (2,), None),
                    (["--n", "8", "--smoke-frames", "1", "--screenshot", "shot.png"], (0,), files_exist("shot.png")),
                    (["--race", "scan-naive,scan-blelloch", "--perf-sweep", "--smoke-frames", "1"], (0,), None),
                    (backend_cuda[0] + ["--smoke-frames", "1"],) + backend_cuda[1:],
                    ([b"--smoke-frames", b"1", b"--screenshot", missing + b".png"], (2,), None),
                    ([b"--algo", odd, b"--smoke-frames", b"1"], (2,), None)],
        "bench": [(["--help"], (0,), stdout_has(b"Usage")), (["--n", "2^41"], (2,), None), (["--runs"], (2,), None),
                  # The CPU rows run with or without a device.
                  (["--impl", "cpu", "--prim", "reduce_sum", "--type", "u32", "--n", "2^10", "--runs", "1"], (0,),
                   stdout_has(b"reduce_sum       cpu")),
                  ([b"--impl", odd], (2,), None), ([b"--out", missing + b"/r.json", b"--impl", b"cpu"], (2,), None)],
    }
    out = []
    for tool, rows in table.items():
        if not b[tool]:
            continue
        rows += [(["--no-such-flag"], (2,), None)]
        if tool != "bench":
            rows += [(["--help"], (0,), stdout_has(b"--"))]
        out += [Case("regression", [b[tool]] + argv, d, expect, env, check) for argv, expect, check in rows]
    return out


# [SECTION] One grammar (issue 25, items 7 and 11): the same flag names, sizes and --list in every
# tool, and every malformed or out-of-range value one line and exit code 2
def list_printed(p):
    """A --list from the one printer: titled sections ("title:"), their rows indented by two spaces."""
    lines = [l for l in p.stdout.decode("utf-8", "replace").split("\n") if l.strip()]
    if not lines or not lines[0].endswith(":") or lines[0].startswith(" "):
        return "--list does not start with a section title: %r" % (lines[:1],)
    bad = [l for l in lines if not (l.endswith(":") and not l.startswith(" ")) and not l.startswith("  ")]
    return "--list lines outside the printer's format: %r" % bad[:3] if bad else None


def grammar_cases(b, work):
    d = os.path.join(work, "grammar")
    env = {"XDG_CONFIG_HOME": os.path.join(d, "config")}
    odd = [b"%s%n", b"\xff\xfe", b"%n%s\xff"]

    def all_of(*checks):
        return lambda p: next((why for why in (c(p) for c in checks) if why), None)

    def stdout_has(*texts):
        return lambda p: next(("stdout lacks %r" % t for t in texts if t not in p.stdout), None)

    def json_sizes(path, sizes):
        def check(p):
            try:
                rows = json.load(open(os.path.join(d, path)))["results"]
            except (OSError, ValueError, KeyError) as e:
                return "%s: %s" % (path, e)
            got = sorted({r["n"] for r in rows})
            return None if got == sorted(sizes) else "%s has n = %s, expected %s" % (path, got, sorted(sizes))
        return check

    # Values no tool may take (out of range for the option, or for every algorithm that reads it).
    step_bad = [["--digit-bits", "9"], ["--algo", "radix-digits", "--digit-bits", "9"], ["--digit-bits", "0"],
                ["--bins", "0"], ["--bins", "99999"], ["--digit-start", "40"],
                ["--algo", "partition-stable", "--digit-start", "31"], ["--predicate", "9"],
                ["--algo", "compact", "--predicate", "3"], ["--variant", "99"], ["--algo", "scan-shared", "--variant", "4"],
                ["--n", "0"], ["--n", "4097"], ["--n", "2^4..2^6"], ["--n", "16,32"], ["--block", "0"],
                ["--block", "2^11"], ["--seed", "-1"], ["--type", "u16"], ["--threshold", "2^40"]]
    step_bad += [[flag, v] for flag in (b"--n", b"--block", b"--type", b"--digit-bits") for v in odd]
    step_good = [(["--algo", "histogram-atomic", "--type", "u32", "--n", "2^4"], (0,), None),
                 (["--algo", "histogram-atomic", "--type", "uint", "--n", "1<<4"], (0,), None),
                 (["--list"], (0,), all_of(list_printed, stdout_has(b"algorithms (--algo", b"scan-blelloch",
                                                                      b"presets (--preset", b"blelloch-8"))),
                 (["--help"], (0,), stdout_has(b"--list", b"--algo"))]
    table = {
        "trace": [(a, (2,), None) for a in step_bad] + step_good,
        "render": [(a + ["--size", "64x64", "--out", "r.png"], (2,), None) for a in step_bad] +
                  [(a + ["--size", "64x64", "--out", "r.png"], e, c) for a, e, c in step_good] +
                  [(["--step", "-5"], (2,), None), (["--size", "10x10"], (2,), None), (["--delay", "70000"], (2,), None)],
        "primlab": [(a + ["--smoke-frames", "1"], (2,), None) for a in step_bad[:12:3] + [step_bad[-1]]] +
                   [(["--list"], (0,), step_good[2][2]), (["--help"], (0,), stdout_has(b"--list")),
                    (["--step", "-1", "--smoke-frames", "1"], (2,), None),
                    (["--type", "f32", "--n", "2^3", "--smoke-frames", "1"], (0,), None)],
    }
    quick = ["--impl", "cpu", "--runs", "1", "--no-png"]
    perf_bad = [["--n", "2^35"], ["--n", "0"], ["--n", "1024..16"], ["--n", "2^4.."], ["--block", "1025"],
                ["--block", "2^11"], ["--items", "65"], ["--runs", "100001"], ["--host-max-n", "2^35"],
                ["--n-factor", "3"], ["--size", "10x10"], ["--cancel-after", "-1"], ["--type", "u16"],
                ["--block-sweep", "--n", "2^4..2^6"], ["--block-sweep", "--n", "1000"], ["--step", "3"]]
    perf_bad += [[flag, v] for flag in (b"--n", b"--type", b"--block", b"--prim") for v in odd]
    enc = lambda args: [a.encode() if isinstance(a, str) else a for a in args]
    table["perf"] = [(enc(a) + enc(quick + ["--out", "p"] + ([] if "--n" in a or b"--n" in a else ["--n", "2^4"])),
                      (2,), None) for a in perf_bad] + [
        (quick + ["--n", "1000,2^10", "--out", "p1"], (0,), json_sizes("p1/perf-scan_exclusive-u32.json", [1000, 1024])),
        (quick + ["--n", "2^4..2^8", "--n-factor", "4", "--out", "p2"], (0,),
         json_sizes("p2/perf-scan_exclusive-u32.json", [16, 64, 256])),
        (quick + ["--n", "2^4..2^8", "--step", "2", "--out", "p3"], (0,),  # the old spelling of --n-factor 4
         json_sizes("p3/perf-scan_exclusive-u32.json", [16, 64, 256])),
        (quick + ["--type", "uint", "--n", "2^4", "--out", "p4"], (0,), json_sizes("p4/perf-scan_exclusive-u32.json", [16])),
        (quick + ["--block-sweep", "--n", "2^6", "--out", "p5"], (0,), json_sizes("p5/perf-scan_exclusive-u32.json", [64])),
        (quick + ["--block-sweep", "--block-n", "6", "--out", "p6"], (0,),  # the old spelling of --n 2^6
         json_sizes("p6/perf-scan_exclusive-u32.json", [64])),
        (["--list"], (0,), all_of(list_printed, stdout_has(b"implementations (--prim", b"cpu-par"))),
        (["--help"], (0,), stdout_has(b"--n-factor", b"--list", b"old name"))]
    bench_quick = ["--impl", "cpu", "--runs", "1", "--host-runs", "1"]
    bench_bad = [["--n", "2^41"], ["--n", "0..2^4"], ["--block", "1025"], ["--items", "65"], ["--runs", "100001"],
                 ["--host-runs", "1001"], ["--type", "u16"], ["--type", "u32,"], ["--n-factor", "3"],
                 ["--prim", "scan-naive"], ["--prim", "nope"], ["--host-max-n", "2^41"]]
    bench_bad += [[flag, v] for flag in (b"--n", b"--type", b"--block", b"--prim") for v in odd[:2]]
    enc = lambda args: [a.encode() if isinstance(a, str) else a for a in args]
    table["bench"] = [(enc(a) + enc(bench_quick + ([] if "--n" in a or b"--n" in a else ["--n", "2^10"]) +
                                 ([] if a[0] in (b"--prim", "--prim") else ["--prim", "reduce_sum"])), (2,), None)
                      for a in bench_bad] + [
        (bench_quick + ["--prim", "reduce_sum", "--type", "u32", "--n", "1000,2^10", "--out", "b1.json"], (0,),
         all_of(stdout_has(b"reduce_sum"), json_sizes("b1.json", [1000, 1024]))),
        (bench_quick + ["--algo", "reduce_sum", "--type", "uint", "--n", "2^10", "--json", "b2.json"], (0,),
         json_sizes("b2.json", [1024])),  # the old spellings of --prim and --out
        (["--list"], (0,), all_of(list_printed, stdout_has(b"implementations (--prim", b"cpu-par"))),
        (["--help"], (0,), stdout_has(b"--prim", b"--n-factor", b"--list", b"old name"))]
    out = []
    for tool, rows in table.items():
        if b[tool]:
            out += [Case("grammar", [b[tool]] + argv, d, expect, env, check) for argv, expect, check in rows]
    return out


if __name__ == "__main__":
    sys.exit(main())
