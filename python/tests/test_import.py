"""The package imports and describes its build on any machine; without a GPU every primitive says
so before touching CUDA."""

import re
import struct
from pathlib import Path

import pytest

import primlab
import primlab.distributed
import primlab.lab
from conftest import FakeArray, source_root

no_gpu = pytest.mark.skipif(primlab._primlab.device_count() > 0, reason="this machine has a CUDA device")


def test_build_info():
    info = primlab.build_info()
    top = (source_root() / "CMakeLists.txt").read_text()
    assert info["version"] == re.search(r"project\(primlab VERSION ([0-9.]+)", top).group(1)
    assert re.fullmatch(r"\d+\.\d+", info["cuda_runtime"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", info["cub"])
    assert info["architectures"]


def fatbin_images(path):
    """(kind, sm) of every image in the CUDA fat binaries of a shared object: kind 1 is PTX, 2 is
    machine code (the fatbin header: magic 0xBA55ED50, header and payload sizes; each image's
    header holds its kind first and its architecture at byte 28)."""
    data = Path(path).read_bytes()
    images = set()
    for m in re.finditer(re.escape(struct.pack("<I", 0xBA55ED50)), data):
        _, _, header, size = struct.unpack_from("<IHHQ", data, m.start())
        at, end = m.start() + header, m.start() + header + size
        while at < end:
            kind, _, image_header, payload = struct.unpack_from("<HHIQ", data, at)
            images.add((kind, struct.unpack_from("<I", data, at + 28)[0]))
            at += image_header + payload
    return images


def test_machine_code_for_every_architecture():
    """The extension carries what each architecture of its build names: machine code (so that a
    first call compiles nothing) unless the name ends in -virtual, and PTX unless it ends in -real."""
    images = fatbin_images(primlab._primlab.__file__)
    for arch in primlab.build_info()["architectures"].split(";"):
        sm = int(re.match(r"\d+", arch).group(0))
        if not arch.endswith("-virtual"):
            assert (2, sm) in images, f"no sm_{sm} machine code"
        if not arch.endswith("-real"):
            assert (1, sm) in images, f"no compute_{sm} PTX"


@no_gpu
@pytest.mark.parametrize("call", [
    lambda x: primlab.sort(x, out=FakeArray()),
    lambda x: primlab.sort(x),
    lambda x: primlab.argsort(x, out=FakeArray(typestr="<i8")),
    lambda x: primlab.exclusive_scan(x, out=FakeArray()),
    lambda x: primlab.inclusive_scan(x, "max", out=FakeArray()),
    lambda x: primlab.reduce(x, out=FakeArray(1)),
    lambda x: primlab.select(x, less_than=3, out=FakeArray()),
    lambda x: primlab.histogram_even(x, 4, 0, 8, out=FakeArray(4)),
    lambda x: primlab.radix_partition(x, num_bits=2, out=(FakeArray(), FakeArray(5))),
    lambda x: primlab.bitonic_sort(x, out=FakeArray()),
    lambda x: primlab.distributed.sort([x, x]),
])
def test_no_gpu_error(call):
    with pytest.raises(RuntimeError, match=r"needs a CUDA device, and this machine has none"):
        call(FakeArray())


def test_lab_runs_without_gpu():
    t = primlab.lab.trace("scan-blelloch", [3, 1, 7, 0, 4, 1, 6, 3], backend="cpu")
    assert t.backend == "CPU reference"
    assert t.steps[-1].rows[t.steps[-1].focus_row].tolist() == [0, 3, 4, 11, 11, 15, 16, 22]


@no_gpu
def test_lab_cuda_backend_without_gpu():
    with pytest.raises(ValueError, match="backend='cuda', and there is no CUDA device"):
        primlab.lab.trace("scan-blelloch", [1, 2, 3], backend="cuda")


def test_build_without_nccl_says_so(monkeypatch):
    monkeypatch.setattr(primlab.distributed.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RuntimeError, match="this build of primlab found no NCCL"):
        primlab.distributed._nccl()
