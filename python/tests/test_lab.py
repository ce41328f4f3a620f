"""primlab.lab against the C++ `trace` tool: for every algorithm of the catalog (at its default
options) and every preset, the Python trace's steps, counters, rows (as NumPy arrays) and
operations equal the tool's JSON. The tool is the full build's build/app/trace (CI builds it),
or $PRIMLAB_TRACE_TOOL."""

import json
import math
import os
import re
import subprocess
from pathlib import Path

import numpy
import pytest

import primlab
import primlab.lab
from conftest import source_root

TOOL = Path(os.environ.get("PRIMLAB_TRACE_TOOL", source_root() / "build" / "app" / "trace"))
needs_tool = pytest.mark.skipif(not TOOL.exists(), reason=f"no trace tool at {TOOL} (build the app, or set PRIMLAB_TRACE_TOOL)")

CASES = [("algo", a["name"]) for a in primlab.lab.algorithms()] + [("preset", p["name"]) for p in primlab.lab.presets()]


def tool_json(option, name, backend):
    """The tool's JSON, or its one-line error (exit code 2: bad options)."""
    run = subprocess.run([str(TOOL), f"--{option}", name, "--backend", backend, "--json"], capture_output=True, text=True)
    if run.returncode == 2:
        return run.stderr.strip().removeprefix("trace: ")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def as_json_values(row, type_name):
    """A row as the tool writes it: numbers, with non-finite floats as their text."""
    if type_name != "float32":
        return row.tolist()
    return [float(v) if math.isfinite(v) else None for v in row.tolist()]


def compare(t, j):
    assert (t.algo, t.title, t.n, t.width, t.block, t.code) == (j["algo"], j["title"], j["n"], j["width"], j["block"], j["code"])
    assert [(r["name"], r["length"], r["element_space"]) for r in t.rows] == \
        [(r["name"], r["length"], r["element_space"]) for r in j["rows"]]
    assert len(t.steps) == len(j["steps"])
    for step, js in zip(t.steps, j["steps"]):
        assert (step.label, step.phase, step.explain) == (js["label"], js["phase"], js["explain"])
        assert step.counters == js["counters"]
        assert step.launch == (js["launch"]["blocks"], js["launch"]["threads"], js["launch"]["active"])
        for name, row in step.rows.items():
            want = js["rows"][name]
            got = as_json_values(row, row.dtype.name)
            assert got == [w if not isinstance(w, str) else None for w in want], (step.index, name)
        ops = step.ops
        assert len(ops) == len(js["ops"])
        for o, jo in zip(ops, js["ops"]):
            assert (o["thread"], primlab.lab.OP_KINDS[o["kind"]], o["src_row"], o["src"], o["dst_row"], o["dst"]) == \
                (jo["thread"], jo["kind"], jo["src_row"], jo["src"], jo["dst_row"], jo["dst"])
            if "swapped" in jo:
                assert bool(o["swapped"]) == jo["swapped"]


@needs_tool
@pytest.mark.parametrize("option, name", CASES, ids=[f"{o}={n}" for o, n in CASES])
def test_cpu_trace_equals_the_tool(option, name):
    """The same trace, or the same refusal (an algorithm whose limits its defaults miss)."""
    want = tool_json(option, name, "cpu")
    if isinstance(want, str):
        with pytest.raises(ValueError, match=re.escape(want)):
            primlab.lab.trace(backend="cpu", **{option: name})
        return
    t = primlab.lab.trace(backend="cpu", **{option: name})
    compare(t, want)
    assert json.loads(t.json()) == want


def test_catalog():
    names = [a["name"] for a in primlab.lab.algorithms()]
    assert "scan-blelloch" in names and "distributed-sort" in names and len(names) == len(set(names))
    assert {p["algo"] for p in primlab.lab.presets()} <= set(names)


def test_blelloch_example():
    t = primlab.lab.trace("scan-blelloch", [3, 1, 7, 0, 4, 1, 6, 3], backend="cpu")
    assert t.steps[0].rows["in"].tolist() == [3, 1, 7, 0, 4, 1, 6, 3]
    last = t.steps[-1]
    assert last.focus_row == "buf (in padded to m = 8)"
    assert last.rows[last.focus_row].tolist() == [0, 3, 4, 11, 11, 15, 16, 22]
    assert last.rows[last.focus_row].dtype == numpy.int32
    assert t.steps[1].ops["kind"].tolist() == [primlab.lab.OP_KINDS.index("move")] * 8  # the copy into buf
    assert t.steps[2].ops["kind"].tolist() == [primlab.lab.OP_KINDS.index("add")] * 4  # up-sweep d=1
    assert t.steps[-1].totals["adds"] == sum(s.counters["adds"] for s in t.steps)


def test_float_rows():
    t = primlab.lab.trace(preset="float-specials", backend="cpu")
    row = t.steps[-1].rows[t.steps[-1].focus_row]
    assert row.dtype == numpy.float32 and numpy.isnan(row).any()


def test_png():
    if not primlab.build_info()["renderer"]:
        pytest.skip("this build has no renderer")
    t = primlab.lab.trace("scan-blelloch", [3, 1, 7, 0, 4, 1, 6, 3], backend="cpu")
    try:
        png = t.steps[2].png(640, 400)
    except RuntimeError as error:
        pytest.skip(f"no headless OpenGL here: {error}")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == 640 and int.from_bytes(png[20:24], "big") == 400
    assert t.steps[2]._repr_png_()[:8] == png[:8]


@pytest.mark.gpu
@pytest.mark.parametrize("name", [a["name"] for a in primlab.lab.algorithms() if a["cuda_stepper"]])
def test_cuda_trace_equals_the_cpu_reference(name):
    """The CUDA steppers and the CPU reference agree bit for bit where the algorithm is
    deterministic, and on the final state and the counters elsewhere."""
    try:
        cpu = primlab.lab.trace(name, backend="cpu")
    except ValueError as refused:  # defaults outside the row's limits: refused the same way
        with pytest.raises(ValueError, match=re.escape(str(refused))):
            primlab.lab.trace(name, backend="cuda")
        return
    cuda = primlab.lab.trace(name, backend="cuda")
    assert cuda.backend.startswith("CUDA: ")
    deterministic = next(a for a in primlab.lab.algorithms() if a["name"] == name)["deterministic"]
    if deterministic:
        numpy.testing.assert_array_equal(cuda.values, cpu.values)
        numpy.testing.assert_array_equal(cuda.ops, cpu.ops)
    else:
        numpy.testing.assert_array_equal(cuda.values[-1, 0], cpu.values[-1, 0])
    assert [s.counters for s in cuda.steps] == [s.counters for s in cpu.steps]
