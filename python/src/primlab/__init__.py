"""primlab: GPU parallel primitives for CuPy, PyTorch, JAX and Numba arrays.

    import cupy, primlab
    keys = cupy.random.randint(0, 2**31, 1 << 20, dtype=cupy.uint32)
    sorted_keys = primlab.sort(keys)                      # a CuPy array
    order = primlab.argsort(keys, descending=True)
    total = primlab.reduce(keys.astype(cupy.int64))       # a 0-d CuPy array

Arrays come in without a copy (1-D, contiguous, on a CUDA device): CuPy arrays and PyTorch
tensors through their own attributes, JAX arrays through __dlpack__ (which orders the call after
the array is written), anything else through __cuda_array_interface__ or __dlpack__. Outputs are
new arrays of the input's library, or the arrays given as out=. Every call runs asynchronously
on stream= (an int handle or an object with __cuda_stream__), by default the input library's
current stream; only select() waits, to learn how many it kept. Workspace is primlab's: a small
one is kept per stream and reused in that stream's order (no allocation per call;
release_workspace() gives them back), a large one comes from primlab's own stream-ordered pool
(cudaMallocFromPoolAsync), which keeps what it grew to. Errors: ValueError for bad arguments
(with the library's message), TypeError for unsupported dtypes, MemoryError when device memory
runs out, RuntimeError for CUDA failures and on a machine without a GPU. The lab's step-by-step traces are in primlab.lab, the multi-GPU
sort in primlab.distributed.
"""

from . import _primlab as _ext
from . import distributed, lab
from ._kinds import kind_of as _kind, known as _known

__all__ = [
    "sort", "argsort", "exclusive_scan", "inclusive_scan", "reduce", "select", "compact",
    "histogram_even", "radix_partition", "bitonic_sort", "build_info", "release_workspace", "distributed",
    "lab",
]

build_info = _ext.build_info
__version__ = build_info()["version"]


def release_workspace():
    """Gives back the workspace primlab keeps for each stream it ran on (up to 32 MiB each, 64 MiB
    in all; larger calls take theirs from a stream-ordered pool and give it back as they return),
    and the registered workspaces primlab.distributed's NCCL groups keep. Waits for the devices
    that hold one."""
    _ext.release_workspace()
    distributed._release_workspace()


# Each call below costs its Python host time before the sort's first launch, which a small sort
# waits for (bench/NOTES-python.md): the Kind is looked up in place, and _result is called only
# for the kinds that convert (JAX).
def _result(kind, outputs):
    """Outputs primlab made, handed over in the input's kind (JAX)."""
    if isinstance(outputs, tuple):
        return tuple(kind.result(x) for x in outputs)
    return kind.result(outputs)


def sort(keys, values=None, *, descending=False, begin_bit=0, end_bit=None, out=None, stream=None):
    """Stable LSD radix sort of keys, or of keys with values, on bits [begin_bit, end_bit) of the
    key (end_bit: the key's width). Keys and values: uint32, int32, float32, uint64, int64,
    float64; floats sort by their flipped bits (-NaN < -inf < -0.0 < +0.0 < +inf < +NaN). Returns
    the sorted keys, or (keys, values); out= is an array, or a pair for pairs (keys may be their
    own out=)."""
    kind = _known.get(type(keys)) or _kind(keys)
    r = _ext.sort(keys, values, out, kind, descending, begin_bit, end_bit, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def argsort(keys, *, descending=False, begin_bit=0, end_bit=None, out=None, stream=None):
    """The int64 indices that sort keys stably (a pairs sort of the keys with 0..n-1)."""
    kind = _known.get(type(keys)) or _kind(keys)
    r = _ext.argsort(keys, out, kind, descending, begin_bit, end_bit, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def exclusive_scan(x, op="sum", *, init=None, out=None, stream=None):
    """out[0] = init, out[i] = init op x[0] op ... op x[i-1]; op: "sum", "min" or "max"; init:
    the op's identity by default. x: int32, uint32, float32, int64, float64."""
    kind = _known.get(type(x)) or _kind(x)
    r = _ext.scan(x, out, kind, False, op, init, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def inclusive_scan(x, op="sum", *, out=None, stream=None):
    """out[i] = x[0] op ... op x[i]; op: "sum", "min" or "max"."""
    kind = _known.get(type(x)) or _kind(x)
    r = _ext.scan(x, out, kind, True, op, None, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def reduce(x, op="sum", *, out=None, stream=None):
    """x[0] op ... op x[n-1] as a 0-d array on the device (the op's identity for n = 0)."""
    kind = _known.get(type(x)) or _kind(x)
    r = _ext.reduce(x, out, kind, op, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def select(x, mask=None, *, less_than=None, greater_equal=None, not_equal=None, out=None, stream=None):
    """The elements of x, in order, where mask (bool or uint8) is set, or where one comparison
    holds (NaN compares false). Waits for the stream to learn the count; returns a view of the
    first count elements of out (n long)."""
    comparisons = [(name, value) for name, value in
                   (("less_than", less_than), ("greater_equal", greater_equal), ("not_equal", not_equal))
                   if value is not None]
    if (mask is None) == (not comparisons) or len(comparisons) > 1:
        raise TypeError("primlab.select takes a mask or one comparison (less_than=, greater_equal= or not_equal=)")
    predicate, value = comparisons[0] if comparisons else ("", None)
    kind = _known.get(type(x)) or _kind(x)
    kept, count = _ext.select(x, mask, out, kind, predicate, value, stream)
    return kept[:count] if out is not None or not kind.converts else _result(kind, kept[:count])


compact = select


def histogram_even(x, bins, lower, upper, *, out=None, stream=None):
    """uint32 counts of x in `bins` equal bins over [lower, upper) (outside and NaN not counted).
    x: uint8, int32, uint32, float32, float64."""
    kind = _known.get(type(x)) or _kind(x)
    r = _ext.histogram_even(x, out, kind, bins, lower, upper, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def radix_partition(keys, values=None, *, begin_bit=0, num_bits=8, out=None, stream=None):
    """Stable partition of keys (or pairs) by the digit in bits [begin_bit, begin_bit + num_bits)
    into 2^num_bits partitions (num_bits 1 to 12). Returns (keys, offsets) or (keys, values,
    offsets): partition p is [offsets[p], offsets[p + 1]), offsets uint32."""
    kind = _known.get(type(keys)) or _kind(keys)
    r = _ext.radix_partition(keys, values, out, kind, begin_bit, num_bits, stream)
    return r if out is not None or not kind.converts else _result(kind, r)


def bitonic_sort(keys, values=None, *, descending=False, segment_size=None, out=None, stream=None):
    """Bitonic sort (not stable) of keys or pairs, as one array or as segments of segment_size
    elements (up to 4096) sorted each on its own."""
    kind = _known.get(type(keys)) or _kind(keys)
    r = _ext.bitonic_sort(keys, values, out, kind, descending, segment_size, stream)
    return r if out is not None or not kind.converts else _result(kind, r)
