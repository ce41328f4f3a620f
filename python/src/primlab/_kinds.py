"""The array libraries primlab takes arrays from, for what the C++ side leaves to Python: making
the outputs of a library it has no allocator for (JAX, Numba, others: as CuPy arrays; CuPy and
PyTorch outputs are made in C++), the multi-GPU calls' outputs on each shard's device, and handing
JAX its results.

An output made here is an array of the input's library (CuPy in, CuPy out), made by that
library's own allocator, so its lifetime and stream rules are the library's.
"""

from . import _primlab as _ext


class Kind:
    """A library primlab has no allocator for: its outputs are CuPy arrays on the input's device."""

    converts = False  # result() hands an output over (JAX)

    def empty(self, like, shape, dtype):
        try:
            import cupy
        except ImportError:
            raise TypeError(
                f"primlab makes the outputs for {type(like).__name__} inputs as CuPy arrays, and CuPy is "
                "not installed: install it, or pass out="
            ) from None
        with cupy.cuda.Device(_ext.device_of(like)):
            return cupy.empty(shape, dtype)

    def result(self, x):
        return x


class _CuPy(Kind):
    def __init__(self):
        import cupy

        self.cupy = cupy

    def empty(self, like, shape, dtype):
        with like.device:
            return self.cupy.empty(shape, dtype)


class _Torch(Kind):
    def __init__(self):
        import torch

        self.torch = torch

    def empty(self, like, shape, dtype):
        return self.torch.empty(shape, dtype=getattr(self.torch, dtype), device=like.device)


class _Numba(Kind):
    def __init__(self):
        from numba import cuda

        self.cuda = cuda

    def empty(self, like, shape, dtype):
        with self.cuda.gpus[_ext.device_of(like)]:
            return self.cuda.device_array(shape, dtype=dtype)


class _Jax(Kind):
    """JAX arrays are immutable: primlab writes CuPy arrays and hands them to JAX through DLPack
    once the device is done with them (the call's stream is not one JAX orders on)."""

    converts = True

    def __init__(self):
        import jax

        self.jax = jax

    def result(self, x):
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
        return self.jax.dlpack.from_dlpack(x)


_LIBRARIES = {"cupy": _CuPy, "cupyx": _CuPy, "torch": _Torch, "numba": _Numba, "jax": _Jax, "jaxlib": _Jax}
known = {}  # type -> its Kind, for the types met so far


def kind_of(x):
    """The Kind of x's library, found once per type."""
    kind = known.get(type(x))
    if kind is None:
        library = type(x).__module__.partition(".")[0]
        kind = known[type(x)] = _LIBRARIES.get(library, Kind)()
    return kind
