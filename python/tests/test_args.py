"""Argument errors the bindings catch before the device is touched (kinds of array, dtypes,
lengths, layouts, streams, options): the same on a machine with or without a GPU."""

import re

import numpy
import pytest

import primlab
import primlab.lab


def test_host_array():
    with pytest.raises(ValueError, match=r"primlab.sort: keys is a host \(CPU\) array"):
        primlab.sort(numpy.arange(8, dtype=numpy.uint32))


def test_not_an_array():
    with pytest.raises(TypeError, match=r"primlab.reduce: x must be a CUDA array .* got list"):
        primlab.reduce([1, 2, 3])


def test_not_contiguous(fake):
    with pytest.raises(ValueError, match="keys is not contiguous"):
        primlab.sort(fake(8, strides=(8,)))


def test_not_one_dimensional(fake):
    with pytest.raises(ValueError, match="x must be 1-D, got 2 dimensions"):
        primlab.inclusive_scan(fake(shape=(2, 4)))


@pytest.mark.parametrize("typestr, name", [("<f2", "float16"), ("<i2", "int16"), ("|b1", "bool"), ("<c8", "complex64"),
                                           (">u4", "uint32 (big-endian)")])
def test_unsupported_dtype(fake, typestr, name):
    with pytest.raises(TypeError, match=rf"keys has dtype {re.escape(name)}; it takes uint32, int32, float32, uint64, int64, float64"):
        primlab.sort(fake(typestr=typestr))


def test_scan_types(fake):
    with pytest.raises(TypeError, match="x has dtype uint64; it takes int32, uint32, float32, int64, float64"):
        primlab.exclusive_scan(fake(typestr="<u8"))


def test_values_length(fake):
    with pytest.raises(ValueError, match="values has 7 elements and keys 8; they must match"):
        primlab.sort(fake(8), fake(7))


def test_out_dtype(fake):
    with pytest.raises(TypeError, match="out has dtype int32, expected uint32"):
        primlab.sort(fake(8), out=fake(8, typestr="<i4"))


def test_out_length(fake):
    with pytest.raises(ValueError, match="out has 9 elements, expected 8"):
        primlab.inclusive_scan(fake(8), out=fake(9))


def test_out_read_only(fake):
    with pytest.raises(ValueError, match="out is read-only"):
        primlab.sort(fake(8), out=fake(8, readonly=True))


def test_out_pairs(fake):
    with pytest.raises(TypeError, match="out= takes a tuple of 2 arrays"):
        primlab.sort(fake(8), fake(8), out=fake(8))


def test_argsort_out_is_int64(fake):
    with pytest.raises(TypeError, match="out has dtype uint32, expected int64"):
        primlab.argsort(fake(8), out=fake(8))


def test_reduce_out_holds_one(fake):
    with pytest.raises(ValueError, match="out has 2 elements, expected 1"):
        primlab.reduce(fake(8), out=fake(2))


def test_partition_offsets(fake):
    with pytest.raises(ValueError, match=r"out\[1\] has 16 elements, expected 17"):
        primlab.radix_partition(fake(8), num_bits=4, out=(fake(8), fake(16)))


def test_bad_op(fake):
    with pytest.raises(ValueError, match="op='prod'; it takes 'sum', 'min' or 'max'"):
        primlab.reduce(fake(8, typestr="<f4"), "prod")


def test_init_type(fake):
    with pytest.raises(ValueError, match="init=1.5 is not a value of int32"):
        primlab.exclusive_scan(fake(8, typestr="<i4"), init=1.5)


def test_init_range(fake):
    with pytest.raises(ValueError, match="init=-1 is not a value of uint32"):
        primlab.exclusive_scan(fake(8), init=-1)


def test_select_needs_one_rule(fake):
    for kwargs in ({}, {"mask": fake(8, typestr="|b1"), "less_than": 3}, {"less_than": 1, "not_equal": 2}):
        with pytest.raises(TypeError, match="takes a mask or one comparison"):
            primlab.select(fake(8), **kwargs)


def test_select_mask_dtype(fake):
    with pytest.raises(TypeError, match="mask has dtype int32; it takes bool, uint8"):
        primlab.select(fake(8), fake(8, typestr="<i4"))


def test_histogram_level_type(fake):
    with pytest.raises(ValueError, match="lower=-1 is not a value of uint64"):
        primlab.histogram_even(fake(8), 4, -1, 8)


def test_bitonic_segments(fake):
    with pytest.raises(ValueError, match="n=10 is not a whole number of segments of 4"):
        primlab.bitonic_sort(fake(10), segment_size=4)


def test_stream_type(fake):
    with pytest.raises(TypeError, match=r"stream= takes an int handle or an object with __cuda_stream__"):
        primlab.sort(fake(8), stream="fast")


def test_stream_protocol_shape(fake):
    class Method:
        def __cuda_stream__(self):
            return 5

    class Property:
        __cuda_stream__ = (0, 1, 2)

    for stream in (Method(), Property()):
        with pytest.raises(TypeError, match=r"stream.__cuda_stream__\(\) must return \(version, handle\)"):
            primlab.sort(fake(8), stream=stream)


def test_distributed_no_shards():
    with pytest.raises(ValueError, match="no shards"):
        primlab.distributed.sort([])


def test_distributed_bad_transport():
    with pytest.raises(ValueError, match="transport is 'nccl', 'peer' or None, not 'mpi'"):
        primlab.distributed.sort([], transport="mpi")


def test_lab_unknown_algorithm():
    with pytest.raises(ValueError, match="unknown algorithm 'scan-fast'"):
        primlab.lab.trace("scan-fast", [1, 2])


def test_lab_bad_input():
    with pytest.raises(ValueError, match="primlab.lab.trace: "):
        primlab.lab.trace("scan-blelloch", "1 2 x")


def test_lab_backend():
    with pytest.raises(ValueError, match="backend='gpu'"):
        primlab.lab.trace("scan-blelloch", [1, 2], backend="gpu")


def test_lab_preset_alone():
    with pytest.raises(TypeError, match="a preset sets every option"):
        primlab.lab.trace(preset="blelloch-8", n=16)
