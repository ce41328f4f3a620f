"""A primlab window under an X server, driven with xdotool and read through its --state-file: the
helpers of the GUI tests (drive_app.py, drive_perf.py, layout_check.py)."""
import json
import os
import subprocess
import tempfile
import time


class Checks:
    """Counts failed checks; every check prints one line."""

    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        self.failures += 0 if ok else 1
        return ok


def xdo(*args):
    subprocess.run(["xdotool", *args], check=True)


def click(rect, app=None):
    """Moves to the middle of rect, then presses and releases the button a few frames apart (of
    `app`'s frames when given: ImGui 1.86 loses a press and release between two frames)."""
    x0, y0, x1, y1 = rect
    wait = app.frames if app else (lambda k=2: time.sleep(0.15 * k))
    xdo("mousemove", str(int((x0 + x1) / 2)), str(int((y0 + y1) / 2)))
    wait()
    xdo("mousedown", "1")
    wait()
    xdo("mouseup", "1")


def key(name, app):
    """Presses and releases a key a few of `app`'s frames apart (a tap between two frames is lost)."""
    xdo("keydown", name)
    app.frames()
    xdo("keyup", name)


def screenshot(path):
    """The whole screen as a PNG (for a person to look at; needs xwd and ImageMagick)."""
    try:
        xwd = subprocess.run(["xwd", "-root", "-silent"], check=True, capture_output=True).stdout
        subprocess.run(["convert", "xwd:-", path], input=xwd, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"note: no screenshot {path}: {e}")


class App:
    """The app started with `args` and a state file of its own, in a fresh config folder."""

    def __init__(self, exe, args):
        self.work = tempfile.mkdtemp(prefix="primlab-gui-")
        self.state_path = os.path.join(self.work, "state.json")
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(self.work, "config"))
        self.proc = subprocess.Popen([exe, *args, "--state-file", self.state_path], env=env)

    def state(self):
        try:
            with open(self.state_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def wait_for(self, pred, seconds=8.0):
        """Polls the state file until pred(state) holds; returns the last state read."""
        end = time.time() + seconds
        s = self.state()
        while time.time() < end:
            s = self.state()
            if s is not None and pred(s):
                return s
            time.sleep(0.05)
        return s

    def frames(self, k=2):
        """Waits until the window has drawn k more frames."""
        s = self.state()
        if s is not None and "frame" in s:
            self.wait_for(lambda t: t["frame"] >= s["frame"] + k, 5.0)
        else:
            time.sleep(0.1 * k)

    def settled(self, pred=lambda s: True, frames=0.4):
        """The state once pred holds and a few more frames have been drawn (layouts settle over
        two or three frames)."""
        self.wait_for(pred)
        time.sleep(frames)
        self.frames(3)
        return self.wait_for(pred, 2.0)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
