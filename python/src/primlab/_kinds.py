"""The array libraries primlab takes arrays from: what each one does not say through
__cuda_array_interface__ or __dlpack__ (which primlab reads itself), namely how it makes a new
array of its own kind on the input's device, and which stream is its current one.

An output made here is an array of the input's library (CuPy in, CuPy out), made by that
library's own allocator, so its lifetime and stream rules are the library's.
"""

from . import _primlab as _ext


class Kind:
    """A library primlab has no allocator for: its outputs are CuPy arrays on the input's device,
    and its stream is the one the array names (CUDA Array Interface v3), else the legacy default."""

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

    def stream(self, like):
        return None

    def result(self, x):
        return x


class _CuPy(Kind):
    def __init__(self):
        import cupy

        self.cupy = cupy

    def empty(self, like, shape, dtype):
        with like.device:
            return self.cupy.empty(shape, dtype)

    def stream(self, like):
        return self.cupy.cuda.get_current_stream(like.device.id).ptr


class _Torch(Kind):
    def __init__(self):
        import torch

        self.torch = torch

    def empty(self, like, shape, dtype):
        return self.torch.empty(shape, dtype=getattr(self.torch, dtype), device=like.device)

    def stream(self, like):
        # A CPU tensor has no stream; primlab then says it is a host array.
        return self.torch.cuda.current_stream(like.device).cuda_stream if like.is_cuda else None


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

    def __init__(self):
        import jax

        self.jax = jax

    def result(self, x):
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
        return self.jax.dlpack.from_dlpack(x)


_LIBRARIES = {"cupy": _CuPy, "cupyx": _CuPy, "torch": _Torch, "numba": _Numba, "jax": _Jax, "jaxlib": _Jax}
_kinds = {}


def kind_of(x):
    """The Kind of x's library, found once per type."""
    kind = _kinds.get(type(x))
    if kind is None:
        library = type(x).__module__.partition(".")[0]
        kind = _kinds[type(x)] = _LIBRARIES.get(library, Kind)()
    return kind
