#!/usr/bin/env python3
"""The Race as --race opens it, read from the --state-file of a short smoke run: --block sets both
sides; without --n and --block the race opens where its two sides' whole traces differ and its
header says what differs (highlighted first); a typed input keeps its size. Run under an X server.
Usage: race_check.py PRIMLAB_EXECUTABLE
Every check prints one line; the exit code is the number of failed checks (0: all passed)."""
import json
import os
import subprocess
import sys
import tempfile

from window import Checks

EXE = sys.argv[1]
check = Checks()
work = tempfile.mkdtemp(prefix="primlab-race-")


def race(*args):
    """The state of the last frame of `primlab ARGS` (a few frames), or None."""
    path = os.path.join(work, "state.json")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
    run = subprocess.run([EXE, *args, "--smoke-frames", "4", "--state-file", path], env=env, timeout=120)
    if run.returncode != 0:
        return None
    with open(path) as f:
        return json.load(f)


def sides(s):
    a, b = s["race"]["a"], s["race"]["b"]
    return f"A {a['algo']} n {a['n']} block {a['block']}, B {b['algo']} n {b['n']} block {b['block']}"


# Item 1: --block sets both sides (it set A's only: B stayed at 8, and reduce3 read more divergent
# warps than reduce1).
s = race("--race", "reduce1,reduce3", "--n", "256", "--block", "64")
check(s is not None and s["race"]["a"]["block"] == 64 and s["race"]["b"]["block"] == 64 and s["race"]["a"]["n"] == 256
      and s["race"]["b"]["n"] == 256, "--race reduce1,reduce3 --n 256 --block 64: " + (sides(s) if s else "no state"))

# Item 2: without --n and --block the race opens where the two differ, says so in its header, and
# highlights the figures that differ first.
s = race("--race", "reduce1,reduce3")
ok = s is not None and s["race"]["a"]["block"] == s["race"]["b"]["block"] and s["race"]["differs"]
check(bool(ok), "--race reduce1,reduce3 opens where they differ: " + (sides(s) + f"; differ: {s['race']['differs']}" if s else "no state"))
if s:
    texts = [l[4] for l in s["labels"]]
    header = [t for t in texts if t.startswith("Whole traces, A vs B")]
    first = texts.index(header[0]) if header else -1
    named = first >= 0 and first + 1 < len(texts) and texts[first + 1].startswith(s["race"]["differs"][0])
    check(bool(header) and "differ" in header[0] and named,
          f"the race's header says what differs first: {texts[first:first + 3] if first >= 0 else 'no header'}")

# A given block stays, on both sides; a typed input keeps its size.
s = race("--race", "reduce1,reduce3", "--block", "128")
check(s is not None and s["race"]["a"]["block"] == 128 and s["race"]["b"]["block"] == 128,
      "--race reduce1,reduce3 --block 128: " + (sides(s) if s else "no state"))
s = race("--race", "scan-naive,scan-blelloch", "--input", "3 1 7 0 4 1 6 3")
check(s is not None and s["race"]["a"]["n"] == 8 and s["race"]["b"]["n"] == 8,
      "--race scan-naive,scan-blelloch --input '3 1 7 0 4 1 6 3': " + (sides(s) if s else "no state"))
sys.exit(check.failures)
