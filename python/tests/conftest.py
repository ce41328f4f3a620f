"""Shared test pieces. Tests marked gpu need a CUDA device: a plain `pytest` skips them (with the
reason shown) where there is none; `pytest -m gpu`, the device run, selects them, and there a
missing device fails them instead of skipping them."""

from pathlib import Path

import pytest

import primlab


def source_root():
    """The repository's top folder (the tests also run from a copy under it, as on the device)."""
    return next(p for p in Path(__file__).resolve().parents if (p / "kernels" / "include" / "primlab").is_dir())


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device (pytest -m gpu: fails, never skips, without one)")


def pytest_collection_modifyitems(config, items):
    selected = "gpu" in config.getoption("-m") and "not gpu" not in config.getoption("-m")
    if selected or primlab._primlab.device_count() > 0:
        return
    skip = pytest.mark.skip(reason="no CUDA device (on a GPU machine run: pytest -m gpu)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


class FakeArray:
    """An object that speaks the CUDA Array Interface, with a made-up device pointer: enough for
    every check made before the device is touched."""

    def __init__(self, n=8, typestr="<u4", strides=None, shape=None, ptr=0x7F0000000000, readonly=False):
        self.__cuda_array_interface__ = {
            "shape": shape if shape is not None else (n,),
            "typestr": typestr,
            "data": (ptr, readonly),
            "strides": strides,
            "version": 3,
            "stream": None,
        }


@pytest.fixture
def fake():
    return FakeArray
