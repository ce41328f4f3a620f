"""primlab.lab: the lab's step-by-step traces, for a notebook or a test.

    t = primlab.lab.trace("scan-blelloch", [3, 1, 7, 0, 4, 1, 6, 3])
    t.steps[2].label                 # 'up-sweep d=1: buf[right] += buf[right - 1], right = 2k + 1, ...'
    last = t.steps[-1]
    last.rows[last.focus_row]        # array([ 0,  3,  4, 11, 11, 15, 16, 22], dtype=int32)
    t.steps[3]                       # a notebook draws the step's frame (_repr_png_)

The catalog is the app's (algorithms(), presets()); a trace is the one the `trace` tool prints
for the same options (the tool's option names, with underscores), built by the CUDA steppers
where a GPU is present and by the CPU reference elsewhere, or as backend= says. Frames come from
the app's trace view, drawn offscreen through EGL.
"""

import numpy

from . import _primlab as _ext

__all__ = ["algorithms", "presets", "trace", "Trace", "Step"]

algorithms = _ext.algorithms
presets = _ext.presets


def trace(algo=None, input=None, *, preset=None, backend="auto", n=None, dist=None, seed=None, type=None,
          block=None, inclusive=None, no_offsets=None, digit_bits=None, bins=None, digit_start=None,
          predicate=None, threshold=None, variant=None, descending=None, kv=None):
    """The trace of algo (see algorithms()) on input (a list or array of numbers, or a string as
    `trace --input` takes it), or on a generated input (n, dist, seed), or of a preset (which sets
    every option); backend: "auto", "cpu" or "cuda"."""
    given = {k: v for k, v in locals().items() if v is not None and k not in ("backend", "input")}
    if preset is not None and (len(given) > 1 or input is not None):
        raise TypeError("primlab.lab.trace: a preset sets every option; give it alone")
    if input is not None:
        given["input"] = input if isinstance(input, str) else " ".join(str(v) for v in numpy.asarray(input).tolist())
    return Trace(_ext.build_trace(given, backend))


class Trace:
    """A whole trace: its steps (a list of Step), the rows every step holds (name, kind, length,
    type), the kernel's listing, and the raw words of every step and row (`values`: steps x rows
    x width uint32) and every op slot (`ops`)."""

    def __init__(self, handle):
        self._t = handle
        self.rows = handle.rows
        self.steps = [Step(self, s) for s in range(handle.step_count)]

    algo = property(lambda self: self._t.algo)
    title = property(lambda self: self._t.title)
    type = property(lambda self: self._t.type)
    n = property(lambda self: self._t.n)
    width = property(lambda self: self._t.width)
    block = property(lambda self: self._t.block)
    backend = property(lambda self: self._t.backend)
    code = property(lambda self: self._t.code)
    values = property(lambda self: self._t.values)
    ops = property(lambda self: self._t.ops)

    def json(self):
        """The trace as the `trace --json` tool writes it."""
        return self._t.json()

    def text(self, all_rows=False):
        """The trace as the `trace` tool prints it."""
        return self._t.text(all_rows)

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, s):
        return self.steps[s]

    def __repr__(self):
        return f"<Trace {self.algo}: {self.type}, n={self.n}, {len(self.steps)} steps, {self.backend}>"


OP_KINDS = tuple(_ext.op_kind_name(k) for k in range(7))  # names of Step.ops["kind"]
_OP_FIELDS = numpy.dtype([("thread", "i4"), ("kind", "i4"), ("src_row", "i4"), ("src", "i4"),
                          ("dst_row", "i4"), ("dst", "i4"), ("swapped", "?")])


class Step:
    """One step: label, phase, explain (the step in plain words), counters and totals (the sum of
    steps 0..this one), launch (blocks, threads, active), code_lines (of Trace.code), rows (name
    -> NumPy array of the row's type and length, a view of the trace) and ops (the operations of
    the step's active threads). png() draws it; a notebook shows it."""

    def __init__(self, trace, index):
        self.trace = trace
        self.index = index
        info = trace._t.step(index)
        self.label, self.phase, self.explain = info["label"], info["phase"], info["explain"]
        self.counters, self.launch, self.code_lines = info["counters"], info["launch"], info["code_lines"]
        self.focus_row = trace.rows[info["focus_row"]]["name"]
        self._slots = slice(info["op_begin"], info["op_begin"] + info["op_count"])

    @property
    def totals(self):
        return self.trace._t.totals(self.index)

    @property
    def rows(self):
        words = self.trace.values[self.index]
        return {r["name"]: words[i, : r["length"]].view(r["type"]) for i, r in enumerate(self.trace.rows)}

    @property
    def ops(self):
        slots = self.trace.ops[self._slots]
        slots = slots[slots[:, 1] & 0xFF != 0]  # idle threads' slots hold kind None
        out = numpy.empty(len(slots), _OP_FIELDS)
        out["thread"], out["src"], out["dst"] = slots[:, 0], slots[:, 2], slots[:, 3]
        out["kind"], out["src_row"] = slots[:, 1] & 0xFF, (slots[:, 1] >> 8) & 0xFF
        out["dst_row"], out["swapped"] = (slots[:, 1] >> 16) & 0xFF, (slots[:, 1] >> 24) & 1
        return out

    def png(self, width=1280, height=800):
        """The step's frame (the app's trace view) as PNG bytes."""
        return _renderer().png(self.trace._t, self.index, width, height)

    def _repr_png_(self):
        return self.png()

    def __repr__(self):
        return f"<Step {self.index} of {self.trace.algo}: {self.label}>"


def _renderer():
    try:
        from . import _render
    except ModuleNotFoundError:
        raise RuntimeError("primlab.lab: this build of primlab has no renderer (it needs python3-glad, libegl-dev "
                           "and libstb-dev when it is built)") from None
    except ImportError as error:
        raise RuntimeError(f"primlab.lab: the headless renderer cannot load ({error}); it needs libEGL: NVIDIA's "
                           "driver, or Mesa (libegl1 and libegl-mesa0)") from None
    return _render
