#!/usr/bin/env python3
"""Drives the real primlab window with xdotool (keys, clicks) and checks what it showed, read from
the app's --state-file. Run under an X server (xvfb-run). Usage: drive_app.py PRIMLAB_EXECUTABLE
Every check prints one line; the exit code is the number of failed checks (0: all passed)."""
import json
import os
import subprocess
import sys
import tempfile
import time

from window import Checks, xdo

APP = sys.argv[1]
work = tempfile.mkdtemp(prefix="primlab-gui-")
STATE = os.path.join(work, "state.json")
check = Checks()


def state():
    try:
        with open(STATE) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def wait_for(pred, seconds=8.0):
    """Polls the state file until pred(state) holds; returns the last state read."""
    end = time.time() + seconds
    s = state()
    while time.time() < end:
        s = state()
        if s is not None and pred(s):
            return s
        time.sleep(0.05)
    return s



def frames(k=2):
    """Waits until the window has drawn k more frames (ImGui 1.86 reads the mouse buttons and the
    keys held at a frame: a press and release between two frames is lost, and a loaded machine
    draws slowly)."""
    s = state()
    if s is not None and "frame" in s:
        wait_for(lambda t: t["frame"] >= s["frame"] + k, 5.0)
    else:
        time.sleep(0.1 * k)


def hold(down, up, *args):
    """xdotool `down` ARGS, a few frames, then `up` ARGS."""
    xdo(down, *args)
    frames()
    xdo(up, *args)


def click(rect):
    """Moves to the middle of rect, then presses and releases the button a few frames apart."""
    x0, y0, x1, y1 = rect
    xdo("mousemove", str(int((x0 + x1) / 2)), str(int((y0 + y1) / 2)))
    frames()
    hold("mousedown", "mouseup", "1")


def press(key, pred, what):
    """Taps a key (however short the tap, the press counts) and waits until the state shows its effect."""
    xdo("key", key)
    s = wait_for(pred, 4.0)
    check(s is not None and pred(s), what + ("" if s is None or pred(s) else
                                             f" (step {s['step']['step']}, race {s['race']['step']})"))
    return s


def code_follows(pane):
    c = pane["code"]
    return bool(c["lit"]) and all(c["first"] <= l <= c["last"] for l in c["lit"])


env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
app = subprocess.Popen([APP, "--algo", "radix-split", "--input", "5 3 7 1 6 0 4 2 3 5 1 7 2 6 0 4",
                        "--block", "4", "--state-file", STATE], env=env)
try:
    s = wait_for(lambda s: s["step"]["last_step"] > 20, 30.0)
    check(s is not None, "the window comes up and writes its state")
    if s is None:
        sys.exit(1)
    click(s["items"]["tab step"])  # focus the window without touching a control
    time.sleep(1.0)  # the window takes the keyboard focus

    # Step tab: the arrow keys step, and the code panel keeps the lit lines in view.
    for k in range(1, 11):
        press("Right", lambda s, k=k: s["step"]["step"] == k, f"Right goes to step {k}")
        s = wait_for(lambda s: code_follows(s["step"]), 2.0)  # the panel scrolls on the next frame
        check(code_follows(s["step"]), f"step {k}: lit lines {s['step']['code']['lit']} inside the visible "
                                       f"{s['step']['code']['first']}..{s['step']['code']['last']}")
    press("Left", lambda s: s["step"]["step"] == 9, "Left goes back to step 9")
    last = s["step"]["last_step"]
    press("End", lambda s: s["step"]["step"] == last, f"End goes to the last step {last}")
    s = wait_for(lambda s: code_follows(s["step"]), 2.0)
    check(code_follows(s["step"]), "the last step's lines are in view")
    press("Home", lambda s: s["step"]["step"] == 0, "Home goes to step 0")

    # Race tab: the keys drive the tab shown, not the hidden Step tab.
    click(s["items"]["tab race"])
    s = wait_for(lambda s: s["tab"] == "race")
    check(s["tab"] == "race", "a click on the Race tab shows it")
    press("Right", lambda s: s["race"]["step"] == 1, "Right steps the race")
    press("Right", lambda s: s["race"]["step"] == 2, "Right steps the race again")
    s = wait_for(lambda s: code_follows(s["race"]["a"]) and code_follows(s["race"]["b"]), 2.0)
    check(s["step"]["step"] == 0, "the hidden Step tab did not move")
    check(code_follows(s["race"]["a"]) and code_follows(s["race"]["b"]), "both race code panels show their lit lines")
    s = press("space", lambda s: s["race"]["playing"], "space plays the race")
    time.sleep(1.5)
    s = state()
    check(s["race"]["step"] >= 4 or not s["race"]["playing"], f"the race moved on while playing (step {s['race']['step']})")
    press("space", lambda s: not s["race"]["playing"], "space pauses the race")

    # Step tab again: a bad list keeps the text as typed, with the error beside it.
    click(s["items"]["tab step"])
    s = wait_for(lambda s: s["tab"] == "step")
    check(s["tab"] == "step", "a click on the Step tab shows it")
    time.sleep(0.5)
    s = state()  # the input box's place on the Step tab (the Race tab has one too)
    click(s["items"]["typed list"])
    frames()
    hold("keydown", "keyup", "End")  # ImGui reads a text field's keys as held at a frame
    xdo("type", " 9 x")
    frames()
    click(s["items"]["apply list"])
    s = wait_for(lambda s: s["step"]["message"] != "")
    check(s["step"]["message"] != "", f"a bad list is refused: '{s['step']['message']}'")
    check(s["step"]["typed"].endswith("9 x"), f"the typed text is kept: '{s['step']['typed']}'")
    check(s["step"]["input"] == "typed", "the input stays a typed list")
finally:
    app.terminate()
    try:
        app.wait(10)
    except subprocess.TimeoutExpired:
        app.kill()

# The block slider of a reduction: Ctrl+click types a block size (not the slider's exponent), and
# dragging it through sizes with shorter traces keeps the last step at the last step.
app = subprocess.Popen([APP, "--algo", "reduce1", "--n", "256", "--block", "8", "--state-file", STATE], env=env)
try:
    s = wait_for(lambda s: s["step"]["algo"] == "reduce1" and "block slider" in s["items"], 30.0)
    check(s is not None and "block slider" in s["items"], "the reduction's Step tab comes up with its block slider")
    slider = s["items"]["block slider"]
    xdo("mousemove", str(int(slider[0] + 2)), str(int((slider[1] + slider[3]) / 2)))
    frames()
    xdo("keydown", "ctrl")
    frames()
    hold("mousedown", "mouseup", "1")
    frames()
    xdo("keyup", "ctrl")
    frames()
    xdo("type", "32")
    frames()
    hold("keydown", "keyup", "Return")  # held for frames: ImGui 1.86 reads Enter as a key held at a frame
    s = wait_for(lambda s: s["step"]["block"] == 32, 4.0)
    check(s["step"]["block"] == 32, f"Ctrl+click on the block slider and typing 32 gives block 32 (block {s['step']['block']})")

    # End, then drag the slider from 1 thread to its other end: every size on the way rebuilds the
    # trace, some shorter, and the step stays the last.
    click(s["items"]["tab step"])
    time.sleep(0.5)
    press("End", lambda s: s["step"]["step"] == s["step"]["last_step"], "End goes to the last step")
    y = str(int((slider[1] + slider[3]) / 2))
    xdo("mousemove", str(int(slider[0] + 2)), y)
    frames()
    xdo("mousedown", "1")
    frames()
    steps_seen = []
    for k in range(1, 21):
        xdo("mousemove", str(int(slider[0] + (slider[2] - slider[0]) * k / 20)), y)
        frames()
        s = state()
        steps_seen.append((s["step"]["block"], s["step"]["step"], s["step"]["last_step"]))
    xdo("mouseup", "1")
    s = wait_for(lambda s: True, 1.0)
    blocks = sorted({b for b, _, _ in steps_seen})
    check(len(blocks) >= 4, f"the drag went through block sizes {blocks}")
    off = [(b, st, last) for b, st, last in steps_seen if st != last]
    check(not off, "the step stayed the last one through every block size" + (f": (block, step, last) {off}" if off else ""))
    check(s["step"]["step"] == s["step"]["last_step"], f"after the drag the step is the last ({s['step']['step']} of {s['step']['last_step']})")

    # A preset from the menu (grouped by family): its name stays in the combo until the choice changes.
    click(s["items"]["preset combo"])
    s = wait_for(lambda s: "preset lecture-reduce1" in s["items"], 4.0)
    frames(3)  # a popup's first frame only measures it: its items' places come after
    s = state()
    check("preset lecture-reduce1" in s["items"], "the preset menu opens and lists lecture-reduce1")
    click(s["items"]["preset lecture-reduce1"])
    s = wait_for(lambda s: s["step"]["preset"] == "lecture-reduce1", 4.0)
    check(s["step"]["preset"] == "lecture-reduce1" and s["step"]["n"] == 256 and s["step"]["block"] == 64,
          f"picking lecture-reduce1 loads it and names it (preset '{s['step']['preset']}', n {s['step']['n']}, "
          f"block {s['step']['block']})")
    slider = s["items"]["block slider"]
    click([slider[0], slider[1], slider[0] + 6, slider[3]])  # the slider's left end: 1 thread
    s = wait_for(lambda s: s["step"]["block"] != 64, 4.0)
    check(s["step"]["preset"] == "", f"another block size is no longer the preset (preset '{s['step']['preset']}')")
finally:
    app.terminate()
    try:
        app.wait(10)
    except subprocess.TimeoutExpired:
        app.kill()
sys.exit(check.failures)
