#!/usr/bin/env python3
"""Drives the Performance tab of the real primlab window with xdotool and checks what it showed,
read from the app's --state-file: loading a baseline, a CPU sweep, Save, the hover readout, and the
layout (issue 25, item 10): the buttons stay put when Run starts, when the sweep ends and after
Save; the progress text stays inside its bar; the readout gives each series' ratio to CUB in words;
on every view no two texts overlap and none leaves the window. Run under an X server (xvfb-run)
at the screen size to check. Usage: drive_perf.py PRIMLAB_EXECUTABLE SOURCE_DIR
Every check prints one line; the exit code is the number of failed checks (0: all passed)."""
import json
import os
import subprocess
import sys
import tempfile
import time

from window import Checks, xdo

APP, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
BASELINE = os.path.join(SOURCE, "bench", "results", "nvidia-h200-2026-11-23-perf-scan.json")
work = tempfile.mkdtemp(prefix="primlab-gui-perf-")
STATE = os.path.join(work, "state.json")
BUTTONS = ["perf run", "perf clear results", "perf progress", "perf export dir", "perf save", "perf png",
           "perf baseline path", "perf load baseline", "perf clear baseline"]
check = Checks()


def state():
    try:
        with open(STATE) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def wait_for(pred, seconds=8.0):
    """Polls the state file (nudging the mouse, so that an idle window draws) until pred holds."""
    end = time.time() + seconds
    s = state()
    while time.time() < end:
        s = state()
        if s is not None and pred(s):
            return s
        xdo("mousemove_relative", "--", "1", "0")
        time.sleep(0.1)
        xdo("mousemove_relative", "--", "-1", "0")
    return s


def settled(frames=3, seconds=8.0):
    """The state `frames` frames after now (the mouse nudged so that an idle window draws them): a
    click's effect and ImGui's layout of it (a table fits its columns a frame later) are in."""
    s = state()
    start = s["frame"] if s else 0
    return wait_for(lambda s: s["frame"] >= start + frames, seconds)



def click(rect, ctrl=False):
    x0, y0, x1, y1 = rect
    xdo("mousemove", str(int((x0 + x1) / 2)), str(int((y0 + y1) / 2)))
    time.sleep(0.2)
    if ctrl:
        xdo("keydown", "ctrl")
    xdo("mousedown", "1")
    time.sleep(0.1)
    xdo("mouseup", "1")
    if ctrl:
        xdo("keyup", "ctrl")
    time.sleep(0.2)


def type_into(rect, text, ctrl=False):
    """Clicks a text box (or ctrl+clicks a slider, which then takes typing), replaces its text."""
    click(rect, ctrl)
    xdo("key", "ctrl+a")
    xdo("type", "--delay", "20", text)
    xdo("key", "Return")
    time.sleep(0.3)


def buttons(s):
    return {k: [round(v, 1) for v in s["items"][k]] for k in BUTTONS if k in s["items"]}


def overlaps(labels):
    """Pairs of texts whose boxes share more than a pixel in both directions."""
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1:
                out.append((a[4], b[4]))
    return out


def check_labels(s, where):
    w, h = s["window"]
    labels = s["perf"]["labels"]
    check(len(labels) > 20, f"{where}: the tab notes its texts ({len(labels)})")
    outside = [l[4] for l in labels if l[0] < -0.5 or l[1] < -0.5 or l[2] > w + 0.5 or l[3] > h + 0.5]
    check(not outside, f"{where}: no text leaves the {w:.0f}x{h:.0f} window" + (f": {outside[:3]}" if outside else ""))
    pairs = overlaps(labels)
    check(not pairs, f"{where}: no two texts overlap" + (f": {pairs[:3]}" if pairs else ""))


def progress_inside(s):
    bar = s["items"].get("perf progress")
    texts = [l for l in s["perf"]["labels"] if bar and l[1] >= bar[1] - 1 and l[3] <= bar[3] + 1 and
             l[0] < bar[2] and l[2] > bar[0]]
    return bar is not None and len(texts) == 1 and texts[0][0] >= bar[0] and texts[0][2] <= bar[2]


env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
app = subprocess.Popen([APP, "--tab", "perf", "--state-file", STATE], env=env, cwd=work)
try:
    s = wait_for(lambda s: s["tab"] == "perf" and "perf run" in s["items"], 30.0)
    if not check(s is not None and s["tab"] == "perf", "the window comes up on the Performance tab"):
        sys.exit(1)
    # The window fills the screen (it opens at its saved or default size, 1440x900 at most).
    screen = [int(v) for v in subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True,
                                             text=True, check=True).stdout.split()]
    if [int(v) for v in s["window"]] != screen:
        win = subprocess.run(["xdotool", "search", "--name", "^primlab$"], capture_output=True, text=True,
                             check=True).stdout.split()[0]
        xdo("windowmove", win, "0", "0")
        xdo("windowsize", win, str(screen[0]), str(screen[1]))
        s = wait_for(lambda s: [int(v) for v in s["window"]] == screen)
    check([int(v) for v in s["window"]] == screen, f"the window fills the {screen[0]}x{screen[1]} screen")
    click(s["items"]["perf view Time vs n"])  # focus the window without changing anything
    time.sleep(1.0)
    size = "%.0fx%.0f" % tuple(s["window"])
    s = settled()
    check_labels(s, f"{size} idle")
    idle = buttons(s)

    # A baseline typed into its box and loaded, and a short sweep (n = 2^10..2^14, typed into the
    # sliders with ctrl+click).
    type_into(s["items"]["perf baseline path"], BASELINE)
    click(s["items"]["perf load baseline"])
    s = wait_for(lambda s: s["perf"]["baseline_rows"] > 0)
    check(s["perf"]["baseline_rows"] > 0, f"the baseline loads ({s['perf']['message']})")
    type_into(s["items"]["perf from n"], "10", ctrl=True)
    type_into(s["items"]["perf to n"], "14", ctrl=True)
    s = settled()
    check(buttons(s) == idle, "the buttons stay put after the baseline loads")

    click(s["items"]["perf run"])
    s = wait_for(lambda s: s["perf"]["running"] or s["perf"]["rows"] > 0)
    check(s["perf"]["running"] or s["perf"]["rows"] > 0, "Run starts the sweep")
    moved, inside = [], True
    while s["perf"]["running"]:
        moved += [k for k, v in buttons(s).items() if idle.get(k) != v]
        inside = inside and progress_inside(s)
        s = settled(1)
    s = wait_for(lambda s: not s["perf"]["running"], 120.0)
    check(not moved, "the buttons stay put while the sweep runs" + (f" (moved: {sorted(set(moved))})" if moved else ""))
    check(inside, "the progress text stays inside its bar while the sweep runs")
    s = settled()
    check(buttons(s) == idle, "the buttons stay put when the sweep ends")
    check(progress_inside(s), "the progress text stays inside its bar when the sweep ends")

    click(s["items"]["perf save"])
    s = wait_for(lambda s: s["perf"]["message"].startswith("wrote"))
    s = settled()
    check(s["perf"]["message"].startswith("wrote"), f"Save writes the files ({s['perf']['message']})")
    check(buttons(s) == idle, "the buttons stay put after Save" +
          ("" if buttons(s) == idle else f" ({buttons(s)} vs {idle})"))

    # The readout over the left of the plot (small n, where this run and the baseline both have rows).
    x0, y0, x1, y1 = s["items"]["perf plot"]
    xdo("mousemove", str(int(x0 + 0.2 * (x1 - x0))), str(int((y0 + y1) / 2)))
    s = wait_for(lambda s: len(s["perf"]["readout"]) > 2)
    lines = s["perf"]["readout"]
    check(any(l.startswith("cpu") and "than CUB (baseline)" in l for l in lines),
          f"the readout gives this run's ratio to the baseline's CUB: {lines[:4]}")
    check(any(l.startswith("primlab (baseline)") and "than CUB (baseline)" in l for l in lines),
          "the readout gives the baseline's ratios to its CUB")
    xdo("mousemove", "5", "5")

    # Every view, laid out at this screen size.
    for view in ("Time vs n", "Throughput vs n", "Time vs block size", "Table"):
        click(s["items"]["perf view " + view])
        s = settled()
        check_labels(s, f"{size} {view}")
        shot = os.path.join(work, "perf-%s-%s.png" % (size, view.replace(" ", "-")))
        if subprocess.run(["sh", "-c", f"xwd -root -silent | convert xwd:- {shot}"], check=False).returncode == 0:
            print("screenshot: " + shot)
finally:
    app.terminate()
    try:
        app.wait(10)
    except subprocess.TimeoutExpired:
        app.kill()
sys.exit(check.failures)
