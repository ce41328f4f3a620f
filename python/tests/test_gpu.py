"""Every primitive and dtype against a NumPy reference, with CuPy and PyTorch arrays, at n = 0, 1
and 2^20 + 1; the stream argument; the library's errors as exceptions; sizes past 2^31; the
multi-GPU sort over the loopback. All need a CUDA device (marker gpu)."""

import os
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX would take most of the GPU

import numpy
import pytest

import primlab
import primlab.distributed

pytestmark = pytest.mark.gpu

SORT_TYPES = ["uint32", "int32", "float32", "uint64", "int64", "float64"]
SCAN_TYPES = ["int32", "uint32", "float32", "int64", "float64"]
HISTOGRAM_TYPES = ["uint8", "int32", "uint32", "float32", "float64"]
SIZES = [0, 1, 2**20 + 1]
UNSIGNED = {4: numpy.uint32, 8: numpy.uint64}


# [SECTION] The two libraries, behind one small interface: to and from the device, a new stream.
class CuPy:
    def __init__(self):
        import cupy

        self.cp = cupy

    def dev(self, a):
        return self.cp.asarray(a)

    def host(self, x):
        return self.cp.asnumpy(x)

    def is_native(self, x):
        return isinstance(x, self.cp.ndarray)

    def empty(self, n, dtype):
        return self.cp.empty(n, dtype)


class Torch:
    def __init__(self):
        import torch

        self.torch = torch

    # PyTorch's unsigned tensors copy through their signed twins (same size, same bits).
    def dev(self, a):
        a = numpy.ascontiguousarray(a)
        if a.dtype.kind == "u" and a.itemsize > 1:
            signed = self.torch.from_numpy(a.view(f"int{8 * a.itemsize}")).cuda()
            return signed.view(getattr(self.torch, a.dtype.name))
        return self.torch.from_numpy(a).cuda()

    def host(self, x):
        name = str(x.dtype).removeprefix("torch.")
        if name.startswith("uint") and name != "uint8":
            bits = name.removeprefix("uint")
            return x.view(getattr(self.torch, f"int{bits}")).cpu().numpy().view(name)
        return x.cpu().numpy()

    def is_native(self, x):
        return isinstance(x, self.torch.Tensor) and x.is_cuda

    def empty(self, n, dtype):
        return self.dev(numpy.empty(n, dtype))


@pytest.fixture(params=["cupy", "torch"], scope="module")
def lib(request):
    return CuPy() if request.param == "cupy" else Torch()


# [SECTION] References.
def random(n, dtype, seed=1):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == "f":
        a = (rng.standard_normal(n) * 1000).astype(dtype)
        if n > 16:  # the float specials, and many equal keys for stability
            a[:8] = [numpy.nan, -numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 1.5, 1.5]
            a[8:16] = 7.0
        return a
    info = numpy.iinfo(dtype)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    if n > 16:
        a[:8] = [info.min, info.max, 0, 0, 1, 1, info.max, info.min]
    return a


def radix_image(a):
    """The unsigned image the library sorts by: floats' flipped bits, signed ints' sign bit flipped."""
    u = a.view(UNSIGNED[a.itemsize])
    top = u.dtype.type(1) << u.dtype.type(8 * a.itemsize - 1)
    if a.dtype.kind == "f":
        return numpy.where(u & top != 0, ~u, u | top)
    return u ^ top if a.dtype.kind == "i" else u


def sort_order(keys, descending=False, begin_bit=0, end_bit=None):
    image = radix_image(keys)
    end_bit = 8 * keys.itemsize if end_bit is None else end_bit
    width = end_bit - begin_bit
    digits = (image >> image.dtype.type(begin_bit)) & image.dtype.type((1 << width) - 1)
    return numpy.argsort(~digits if descending else digits, kind="stable")


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind == "f":
        a, b = a.view(UNSIGNED[a.itemsize]), b.view(UNSIGNED[b.itemsize])
    numpy.testing.assert_array_equal(a, b)


# [SECTION] Sorts.
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SORT_TYPES)
def test_sort_keys(lib, dtype, n):
    keys = random(n, dtype)
    for descending in (False, True):
        out = primlab.sort(lib.dev(keys), descending=descending)
        assert lib.is_native(out)
        same_bits(lib.host(out), keys[sort_order(keys, descending)])


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("value_type", SORT_TYPES)
@pytest.mark.parametrize("key_type", SORT_TYPES)
def test_sort_pairs(lib, key_type, value_type, n):
    keys, values = random(n, key_type), random(n, value_type, seed=2)
    k, v = primlab.sort(lib.dev(keys), lib.dev(values))
    order = sort_order(keys)
    same_bits(lib.host(k), keys[order])
    same_bits(lib.host(v), values[order])


def test_sort_bit_range_and_out(lib):
    keys = random(2**20 + 1, "uint32")
    out = lib.empty(len(keys), "uint32")
    assert primlab.sort(lib.dev(keys), begin_bit=4, end_bit=12, out=out) is out
    same_bits(lib.host(out), keys[sort_order(keys, begin_bit=4, end_bit=12)])


def test_sort_in_place(lib):
    keys = random(1000, "int64")
    x = lib.dev(keys)
    primlab.sort(x, out=x)
    same_bits(lib.host(x), numpy.sort(keys))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SORT_TYPES)
def test_argsort(lib, dtype, n):
    keys = random(n, dtype)
    order = primlab.argsort(lib.dev(keys), descending=True)
    numpy.testing.assert_array_equal(lib.host(order), sort_order(keys, descending=True))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SORT_TYPES)
def test_bitonic_sort(lib, dtype, n):
    keys, values = random(n, dtype), numpy.arange(n, dtype=numpy.int32)
    same_bits(lib.host(primlab.bitonic_sort(lib.dev(keys))), keys[sort_order(keys)])
    k, v = primlab.bitonic_sort(lib.dev(keys), lib.dev(values), descending=True)
    k, v = lib.host(k), lib.host(v)
    same_bits(k, keys[sort_order(keys, descending=True)])
    same_bits(keys[v], k)  # not stable: each value still travels with its key
    numpy.testing.assert_array_equal(numpy.sort(v), values)


@pytest.mark.parametrize("segments, size", [(0, 1024), (1, 1), (1025, 1024), (3, 4096)])
def test_bitonic_segments(lib, segments, size):
    keys = random(segments * size, "float32")
    out = lib.host(primlab.bitonic_sort(lib.dev(keys), segment_size=size))
    want = keys.reshape(segments, size)
    want = numpy.stack([row[sort_order(row)] for row in want]) if segments else want
    same_bits(out, want.reshape(-1))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SORT_TYPES)
def test_radix_partition(lib, dtype, n):
    keys, values = random(n, dtype), random(n, "uint32", seed=3)
    begin = 8 * numpy.dtype(dtype).itemsize - 8
    digits = (radix_image(keys) >> radix_image(keys).dtype.type(begin)).astype(numpy.int64)
    order = numpy.argsort(digits, kind="stable")
    offsets = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(digits, minlength=256))])
    k, o = primlab.radix_partition(lib.dev(keys), begin_bit=begin, num_bits=8)
    same_bits(lib.host(k), keys[order])
    numpy.testing.assert_array_equal(lib.host(o), offsets)
    k, v, o = primlab.radix_partition(lib.dev(keys), lib.dev(values), begin_bit=begin, num_bits=8)
    same_bits(lib.host(v), values[order])


# [SECTION] Scans, reductions, selection, histograms.
def small(n, dtype, seed=1):
    """Values whose sums stay exact in every type (floats too): 0 to 7, negative for signed."""
    rng = numpy.random.default_rng(seed)
    low = -7 if numpy.dtype(dtype).kind in "if" else 0
    return rng.integers(low, 8, n).astype(dtype)


REFERENCE_OPS = {"sum": numpy.add, "min": numpy.minimum, "max": numpy.maximum}


def identity(op, dtype):
    dtype = numpy.dtype(dtype)
    if op == "sum":
        return dtype.type(0)
    if dtype.kind == "f":
        return dtype.type(numpy.inf if op == "min" else -numpy.inf)
    info = numpy.iinfo(dtype)
    return dtype.type(info.max if op == "min" else info.min)


@pytest.mark.parametrize("op", ["sum", "min", "max"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SCAN_TYPES)
def test_scans(lib, dtype, n, op):
    x = small(n, dtype)
    inclusive = REFERENCE_OPS[op].accumulate(x, dtype=x.dtype) if n else x
    same_bits(lib.host(primlab.inclusive_scan(lib.dev(x), op)), inclusive)
    exclusive = numpy.concatenate([[identity(op, dtype)], inclusive[:-1]]).astype(dtype)[:n]
    same_bits(lib.host(primlab.exclusive_scan(lib.dev(x), op)), exclusive)
    if op == "sum" and n:
        same_bits(lib.host(primlab.exclusive_scan(lib.dev(x), init=5)), (exclusive + dtype_of(dtype)(5)).astype(dtype))


def dtype_of(name):
    return numpy.dtype(name).type


@pytest.mark.parametrize("op", ["sum", "min", "max"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SCAN_TYPES)
def test_reduce(lib, dtype, n, op):
    x = small(n, dtype)
    got = lib.host(primlab.reduce(lib.dev(x), op))
    assert got.shape == ()
    want = REFERENCE_OPS[op].reduce(x, dtype=x.dtype) if n else identity(op, dtype)
    same_bits(numpy.asarray(got), numpy.asarray(want, dtype=dtype))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", SCAN_TYPES)
def test_select(lib, dtype, n):
    x = small(n, dtype)
    mask = numpy.random.default_rng(4).random(n) < 0.3
    same_bits(lib.host(primlab.select(lib.dev(x), lib.dev(mask))), x[mask])
    same_bits(lib.host(primlab.select(lib.dev(x), lib.dev(mask.astype(numpy.uint8)))), x[mask])
    same_bits(lib.host(primlab.compact(lib.dev(x), less_than=3)), x[x < 3])
    same_bits(lib.host(primlab.select(lib.dev(x), greater_equal=3)), x[x >= 3])
    same_bits(lib.host(primlab.select(lib.dev(x), not_equal=0)), x[x != 0])


HISTOGRAM_RANGES = {"uint8": (0, 256), "int32": (-1024, 1024), "uint32": (0, 2**32), "float32": (0.0, 1.0),
                    "float64": (0.0, 1.0)}


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", HISTOGRAM_TYPES)
def test_histogram_even(lib, dtype, n):
    lower, upper = HISTOGRAM_RANGES[dtype]
    rng = numpy.random.default_rng(5)
    if numpy.dtype(dtype).kind == "f":
        x = rng.uniform(-0.25, 1.25, n).astype(dtype)
    else:
        x = rng.integers(max(lower - 100, numpy.iinfo(dtype).min), min(upper + 100, numpy.iinfo(dtype).max), n,
                         endpoint=True).astype(dtype)
    # Power-of-two scales: the reference's bin of each sample is exact, as the library's is.
    inside = (x >= lower) & (x < upper)
    bins = (x[inside].astype(numpy.float64 if x.dtype.kind == "f" else object) - lower) * 256 // (upper - lower)
    want = numpy.bincount(numpy.asarray(bins, dtype=numpy.int64), minlength=256).astype(numpy.uint32)
    got = primlab.histogram_even(lib.dev(x), 256, lower, upper)
    numpy.testing.assert_array_equal(lib.host(got), want)


# [SECTION] Streams.
def block(handle, cycles=200_000_000):
    """Holds the stream `handle` back (about 0.1 s at the default `cycles`): it waits for an event
    behind a sleeping kernel (PyTorch's _sleep) on another stream."""
    import torch

    sleeper = torch.cuda.Stream()
    with torch.cuda.stream(sleeper):
        torch.cuda._sleep(cycles)
    done = torch.cuda.Event()
    done.record(sleeper)
    torch.cuda.ExternalStream(handle).wait_event(done)


def check_stream_honoured(hows, call, held, read, reset, sync, want):
    """For each way of naming the stream: hold the stream, make the call, and read the output back
    at once through a copy on the caller's default stream (which does not wait for the held
    one): still zeros, so the call was queued behind the hold; after the hold, the sorted keys.
    Every function the loop runs (the sort, the copy, the hold's sleep kernel) runs once before
    any stream is held: CUDA loads a kernel at its first launch, and loading may wait for the
    whole device (lazy loading), which would let the held stream run before the check. A call
    or a check that waits on the host is named in the message. The control ("elsewhere", stream=0:
    the legacy default stream, which the non-blocking held stream does not hold back) shows that
    the check sees an output written while the stream is held: a call that ignored its stream
    would fail here."""
    for how in hows + ["elsewhere"]:  # warm-up, nothing held
        reset()
        call(how)
        sync()
        read()
    block(held, cycles=1000)
    sync()
    reset()
    sync()
    block(held)
    t0 = time.perf_counter()
    call("elsewhere")
    early = read()
    waited = time.perf_counter() - t0
    assert waited < 0.05, f"the control took {1e3 * waited:.1f} ms: it waited for the held stream"
    numpy.testing.assert_array_equal(early.view(want.dtype), want, err_msg="the control, on another stream")
    sync()
    for how in hows:
        reset()
        sync()
        block(held)
        t0 = time.perf_counter()
        call(how)
        t1 = time.perf_counter()
        early = read()
        t2 = time.perf_counter()
        timing = f"{how}: the call took {1e3 * (t1 - t0):.1f} ms, the read {1e3 * (t2 - t1):.1f} ms, the hold ~100 ms"
        assert t2 - t0 < 0.05, timing + " (something waited for the held stream)"
        assert not early.any(), timing + ": the output was written while its stream was held"
        sync()
        numpy.testing.assert_array_equal(read().view(want.dtype), want, err_msg=how)


def test_stream_is_honoured_torch():
    """The call queues on stream= (a handle, or an object with __cuda_stream__), or else on
    PyTorch's current stream: behind a held stream it has not run yet; after it, it has."""
    torch = Torch().torch
    keys = random(2**20 + 1, "int32")
    x, out = torch.from_numpy(keys).cuda(), torch.zeros(len(keys), dtype=torch.int32, device="cuda")
    s = torch.cuda.Stream()
    hows = ["handle", "current"] + (["protocol"] if hasattr(s, "__cuda_stream__") else [])

    def call(how):
        if how == "current":
            with torch.cuda.stream(s):
                primlab.sort(x, out=out)
        else:
            primlab.sort(x, out=out, stream={"handle": s.cuda_stream, "protocol": s, "elsewhere": 0}[how])

    check_stream_honoured(hows, call, s.cuda_stream, read=lambda: out.cpu().numpy(), reset=out.zero_,
                          sync=torch.cuda.synchronize, want=numpy.sort(keys))


def test_stream_is_honoured_cupy():
    cp = CuPy().cp
    keys = random(2**20 + 1, "float32")
    x, out = cp.asarray(keys), cp.zeros(len(keys), cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    hows = ["handle", "current"] + (["protocol"] if hasattr(s, "__cuda_stream__") else [])

    def call(how):
        if how == "current":
            with s:
                primlab.sort(x, out=out)
        else:
            primlab.sort(x, out=out, stream={"handle": s.ptr, "protocol": s, "elsewhere": 0}[how])

    want = keys[sort_order(keys)]
    check_stream_honoured(hows, call, s.ptr, read=lambda: cp.asnumpy(out).view(numpy.uint32),
                          reset=lambda: out.fill(0), sync=cp.cuda.Device().synchronize, want=want.view(numpy.uint32))


def test_workspace_kept_per_stream(lib):
    """Small calls keep one workspace per stream (no allocation per call) and reuse it only in that
    stream's order: sorts alternating over two streams, then given back."""
    cp = CuPy().cp
    keys = [random(1 << 16, "uint32", seed=s) for s in range(2)]
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(2)]
    xs = [lib.dev(k) for k in keys]
    outs = [lib.empty(1 << 16, "uint32") for _ in range(2)]
    for _ in range(3):
        for x, o, s in zip(xs, outs, streams):
            primlab.sort(x, out=o, stream=s.ptr)
    cp.cuda.Device().synchronize()
    for k, o in zip(keys, outs):
        same_bits(lib.host(o), numpy.sort(k))
    assert primlab._primlab.cached_workspace_bytes() > 0
    primlab.release_workspace()
    assert primlab._primlab.cached_workspace_bytes() == 0
    primlab._primlab.keep_workspace(False)
    try:
        same_bits(lib.host(primlab.sort(xs[0])), numpy.sort(keys[0]))
        assert primlab._primlab.cached_workspace_bytes() == 0
    finally:
        primlab._primlab.keep_workspace(True)


def test_torch_tensor_errors():
    torch = Torch().torch
    with pytest.raises(ValueError, match=r"primlab.sort: keys is a host \(CPU\) array"):
        primlab.sort(torch.arange(8, dtype=torch.int32))
    with pytest.raises(ValueError, match=r"keys requires grad, and primlab records no gradients"):
        primlab.sort(torch.ones(8, device="cuda", requires_grad=True))
    with pytest.raises(ValueError, match="keys is not contiguous"):
        primlab.sort(torch.arange(16, dtype=torch.int32, device="cuda")[::2])
    with pytest.raises(TypeError, match="keys has dtype float16; it takes uint32"):
        primlab.sort(torch.ones(8, dtype=torch.float16, device="cuda"))


def test_cupy_array_errors():
    cp = CuPy().cp
    with pytest.raises(ValueError, match="x must be 1-D, got 2 dimensions"):
        primlab.inclusive_scan(cp.ones((2, 4), cp.int32))
    with pytest.raises(ValueError, match="keys is not contiguous"):
        primlab.sort(cp.arange(16, dtype=cp.uint32)[::-1])
    with pytest.raises(TypeError, match="keys has dtype float16; it takes uint32"):
        primlab.sort(cp.ones(8, cp.float16))


# [SECTION] Errors and sizes.
def test_library_errors(lib):
    x = lib.dev(random(100, "uint32"))
    with pytest.raises(ValueError, match=r"primlab.sort: invalid argument \(begin_bit=0, end_bit=33 of 32-bit keys"):
        primlab.sort(x, end_bit=33)
    with pytest.raises(ValueError, match=r"primlab.radix_partition: invalid argument \(begin_bit=0, num_bits=13"):
        primlab.radix_partition(x, num_bits=13)
    with pytest.raises(ValueError, match=r"primlab.histogram_even: invalid argument \(bins=16, lower=8, upper=8\)"):
        primlab.histogram_even(x, 16, 8, 8)
    with pytest.raises(ValueError, match=r"primlab.bitonic_sort: invalid argument"):
        primlab.bitonic_sort(lib.dev(random(8192, "int32")), segment_size=8192)


def test_out_of_memory():
    """A workspace larger than the device: MemoryError, nothing run (a 2^40-key view of a small array)."""
    cp = CuPy().cp
    small_array = cp.zeros(16, cp.uint32)

    class Huge:
        __cuda_array_interface__ = {"shape": (2**40,), "typestr": "<u4", "data": (small_array.data.ptr, False),
                                    "version": 3, "strides": None}

    with pytest.raises(MemoryError, match=r"primlab.sort: workspace of \d+ bytes"):
        primlab.sort(Huge(), out=Huge())


def test_beyond_2_to_31():
    """Counts are 64-bit: a reduction past 2^31 elements; a sort, limited to 2^31 - 1 keys, says so."""
    cp = CuPy().cp
    n = 2**31 + 16
    x = cp.ones(n, cp.int32)
    assert int(primlab.reduce(x)) == numpy.int64(n).astype(numpy.int32)  # the int32 sum wraps
    assert int(primlab.reduce(x, "max")) == 1
    with pytest.raises(ValueError, match=r"primlab.sort: unsupported .*n=2147483664"):
        primlab.sort(x.view(cp.uint32), out=x.view(cp.uint32))


# [SECTION] Other libraries and the multi-GPU sort.
def test_numba():
    from numba import cuda

    keys = random(1000, "float64")
    out = primlab.sort(cuda.to_device(keys))
    assert cuda.is_cuda_array(out)
    same_bits(out.copy_to_host(), keys[sort_order(keys)])


def test_jax():
    """A JAX array still being written when the call reads it: the keys come from a JAX kernel
    queued behind the host-to-device copy (JAX runs both asynchronously), and the call must order
    itself after them. The device image has JAX with its CUDA backend; without it this fails."""
    import jax
    import jax.numpy as jnp

    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    assert gpus, f"JAX {jax.__version__} has no GPU backend here (devices: {jax.devices()}); install jax[cuda]"
    keys = random(2**20 + 1, "uint32")
    mask = numpy.uint32(0x5A5A5A5A)
    x = jax.device_put(keys ^ mask, gpus[0]) ^ jnp.uint32(mask)
    out = primlab.sort(x)
    assert isinstance(out, jax.Array)
    same_bits(numpy.asarray(out), numpy.sort(keys))
    assert out.devices() == {gpus[0]}


@pytest.mark.parametrize("skewed", [False, True])
@pytest.mark.parametrize("pairs", [False, True])
def test_distributed_sort_on_one_gpu(lib, pairs, skewed):
    """Four shards on one GPU: the library's loopback (virtual ranks) under primlab.distributed.
    Skewed: 7 keys in 10 share the top byte 0x42, which a second splitter round refines and one
    split pass stages (the empty shard samples no digit, so that round counts with a pass)."""
    chunks = [random(n, "uint32", seed=n) for n in (1000, 2**18, 0, 77777)]
    if skewed:
        chunks = [numpy.where(numpy.arange(len(c)) % 10 < 7, (c & numpy.uint32(0xFFFFFF)) | numpy.uint32(0x42000000), c)
                  .astype(numpy.uint32) for c in chunks]
    keys = numpy.concatenate(chunks)
    order = sort_order(keys)
    values = [numpy.arange(len(c), dtype=numpy.int64) + 1_000_000 * i for i, c in enumerate(chunks)]
    if pairs:
        k, v = primlab.distributed.sort([lib.dev(c) for c in chunks], [lib.dev(a) for a in values])
        same_bits(numpy.concatenate([lib.host(a) for a in v]), numpy.concatenate(values)[order])
    else:
        k = primlab.distributed.sort([lib.dev(c) for c in chunks])
    assert len(k) == 4
    same_bits(numpy.concatenate([lib.host(a) for a in k]), keys[order])


def test_distributed_partition_on_one_gpu(lib):
    chunks = [random(n, "int32", seed=n) for n in (5000, 300, 4096)]
    keys = numpy.concatenate(chunks)
    digits = (radix_image(keys) >> numpy.uint32(28)).astype(numpy.int64)
    k, offsets = primlab.distributed.partition([lib.dev(c) for c in chunks], begin_bit=28, num_bits=4)
    same_bits(numpy.concatenate([lib.host(a) for a in k]), keys[numpy.argsort(digits, kind="stable")])
    for part, off in zip(k, offsets):
        o = lib.host(off)
        assert o[0] == 0 and o[-1] == len(part) and (numpy.diff(o.astype(numpy.int64)) >= 0).all()


@pytest.mark.parametrize("transport", ["peer", "nccl", None])
def test_distributed_across_gpus(transport):
    """One shard on each of two GPUs (CuPy arrays made under each device), uneven, over CUDA peer
    copies, NCCL and the default: sort (pairs, stable) and partition, each shard on its own GPU."""
    import cupy

    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    if transport == "nccl" and not primlab.build_info()["nccl"]:
        pytest.skip("this build has no NCCL")

    def on(device, a):
        with cupy.cuda.Device(device):
            return cupy.asarray(a)

    chunks = [random(n, "uint32", seed=n) for n in (2**20 + 3, 77777)]
    keys = numpy.concatenate(chunks)
    values = [numpy.arange(len(c), dtype=numpy.int64) + 10_000_000 * i for i, c in enumerate(chunks)]
    k, v = primlab.distributed.sort([on(i, c) for i, c in enumerate(chunks)], [on(i, a) for i, a in enumerate(values)],
                                    transport=transport)
    assert [a.device.id for a in k] == [0, 1] and [a.device.id for a in v] == [0, 1]
    order = sort_order(keys)
    same_bits(numpy.concatenate([cupy.asnumpy(a) for a in k]), keys[order])
    same_bits(numpy.concatenate([cupy.asnumpy(a) for a in v]), numpy.concatenate(values)[order])
    k, offsets = primlab.distributed.partition([on(i, c) for i, c in enumerate(chunks)], begin_bit=28, num_bits=4,
                                               transport=transport)
    digits = (keys >> numpy.uint32(28)).astype(numpy.int64)
    same_bits(numpy.concatenate([cupy.asnumpy(a) for a in k]), keys[numpy.argsort(digits, kind="stable")])
    assert abs(len(k[0]) - len(k[1])) <= 1
    for part, off in zip(k, offsets):
        o = cupy.asnumpy(off)
        assert o[0] == 0 and o[-1] == len(part)


def test_nccl_groups_keep_a_registered_workspace():
    """Over NCCL each GPU's workspace is the group's kept, registered one: a call larger than the
    last grows it, a smaller one reuses it, release_workspace() gives it back and the next call
    keeps a new one; every result is the host's order."""
    import cupy

    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    if not primlab.build_info()["nccl"]:
        pytest.skip("this build has no NCCL")

    def sort_across(n, seed):
        chunks = [random(n + i, "uint32", seed=seed + i) for i in range(2)]
        parts = []
        for i, c in enumerate(chunks):
            with cupy.cuda.Device(i):
                parts.append(cupy.asarray(c))
        got = numpy.concatenate([cupy.asnumpy(a) for a in primlab.distributed.sort(parts, transport="nccl")])
        same_bits(got, numpy.sort(numpy.concatenate(chunks)))

    for n, seed in ((1000, 1), (2**21, 2), (5000, 3)):
        sort_across(n, seed)
    primlab.release_workspace()
    sort_across(2**20, 4)
    primlab.release_workspace()


def test_nccl_loads():
    """The NCCL module loads here (PyTorch's NCCL); groups across GPUs need two GPUs."""
    if not primlab.build_info()["nccl"]:
        pytest.skip("this build has no NCCL")
    assert primlab.distributed._nccl().version() >= 22000
