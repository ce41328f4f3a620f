#!/usr/bin/env python3
"""Text layout of the real primlab window at the X screen's size: no two texts overlap, none leaves
the window and no edge cuts one (label_check.py, from the --state-file's "labels"), on the Step
tab without and with the shared-memory bank panel, at its first and last step, on the Race (the
tab's first pair, and --race reduce1,reduce3), on scan-lookback and radix-onesweep at every step
with and without the bank panel and racing each other, and on the Performance tab, empty and after
a sweep. Run under an X server (xvfb-run -s "-screen 0 1024x768x24").
Usage: layout_check.py PRIMLAB_EXECUTABLE [SCREENSHOT_FOLDER]
Every check prints one line; the exit code is the number of failed checks (0: all passed)."""
import os
import sys

import label_check
from window import App, Checks, click, key, screenshot

EXE = sys.argv[1]
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
check = Checks()


def frame_ok(s, what):
    size = f"{s['window'][0]:.0f}x{s['window'][1]:.0f}" if s else "?"
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        screenshot(os.path.join(SHOTS, f"{size}-{what.replace(' ', '-')}.png"))
    if s is None:
        return check(False, f"{what}: the window writes its state")
    bad = label_check.problems(s)
    check(not bad and len(s["labels"]) > 0, f"{size} {what}: {len(s['labels'])} texts, none overlaps, leaves the "
                                            f"window or is cut" + "".join("\n     " + b for b in bad))


# The Step tab on a shared-memory scan with bank conflicts, then its bank panel, then the Race tab's
# first pair and the empty Performance tab.
app = App(EXE, ["--preset", "shared-scan-bank-conflicts", "--step", "3"])
try:
    s = app.settled(lambda s: s["tab"] == "step" and s["step"]["step"] == 3, 1.0)
    frame_ok(s, "step tab")
    click(s["items"]["banks header"], app)
    s = app.settled(lambda s: s["step"]["banks_open"])
    check(s is not None and s["step"]["banks_open"], "a click opens the bank panel")
    frame_ok(s, "step tab with banks")
    click(s["items"]["tab step"], app)  # the keyboard to the window, no control touched
    key("End", app)
    s = app.settled(lambda s: s["step"]["step"] == s["step"]["last_step"])
    frame_ok(s, "step tab with banks at the last step")
    click(s["items"]["tab race"], app)
    s = app.settled(lambda s: s["tab"] == "race")
    frame_ok(s, "race tab")
    click(s["items"]["tab perf"], app)
    s = app.settled(lambda s: s["tab"] == "perf")
    frame_ok(s, "performance tab")
finally:
    app.close()

app = App(EXE, ["--race", "reduce1,reduce3"])
try:
    s = app.settled(lambda s: s["tab"] == "race", 1.0)
    frame_ok(s, "race reduce1,reduce3")
finally:
    app.close()

# The library's look-back rows (the most strips, the longest explanations) on the Step tab at every
# step, with the bank panel closed and open, and racing each other. The headless layout test
# (tests/render/test_layout.cpp) holds every catalog row at every step; these are the same rows
# in the real window.
for algo in ("scan-lookback", "radix-onesweep"):
    app = App(EXE, ["--algo", algo, "--n", "64"])
    try:
        s = app.settled(lambda s: s["tab"] == "step" and s["step"]["algo"] == algo, 1.0)
        check(s is not None and s["step"]["algo"] == algo, f"primlab --algo {algo} opens it")
        if s is None:
            continue
        click(s["items"]["tab step"], app)  # the keyboard to the window, no control touched
        for banks in (False, True):
            if banks:
                click(s["items"]["banks header"], app)
                s = app.settled(lambda s: s["step"]["banks_open"])
                click(s["items"]["tab step"], app)
            key("Home", app)
            s = app.settled(lambda s: s["step"]["step"] == 0)
            while True:
                frame_ok(s, f"{algo} step {s['step']['step']}" + (" with banks" if banks else ""))
                at = s["step"]["step"]
                if at >= s["step"]["last_step"]:
                    break
                key("Right", app)
                s = app.settled(lambda s, at=at: s["step"]["step"] > at, 0.1)
                if not check(s["step"]["step"] > at, f"{algo}: Right goes on from step {at}"):
                    break
    finally:
        app.close()

app = App(EXE, ["--race", "scan-lookback,radix-onesweep"])
try:
    s = app.settled(lambda s: s["tab"] == "race", 1.0)
    frame_ok(s, "race scan-lookback,radix-onesweep")
    click(s["items"]["tab race"], app)
    key("End", app)
    s = app.settled(lambda s: s["race"]["step"] > 0)
    frame_ok(s, "race scan-lookback,radix-onesweep at the last step")
finally:
    app.close()

# A CPU sweep (a smoke run's, of sizes up to 2^16, which the test ends when the sweep is done): the
# plots and the table with their rows.
app = App(EXE, ["--tab", "perf", "--perf-sweep", "--smoke-frames", "1000000"])
try:
    s = app.wait_for(lambda s: s["perf"]["rows"] > 0 and not s["perf"]["running"], 240.0)
    s = app.settled(lambda s: s["perf"]["rows"] > 0 and not s["perf"]["running"])
    frame_ok(s, "performance tab after a sweep")
finally:
    app.close()
sys.exit(check.failures)
