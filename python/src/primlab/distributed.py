"""primlab.distributed: sort and radix partition over shards that this process drives.

    parts = [cupy.asarray(chunk) for chunk in chunks]        # one per GPU, made under each device
    sorted_parts = primlab.distributed.sort(parts)           # shard r: the r-th range of the order

Shards on distinct GPUs exchange keys over NCCL (transport="nccl": the communicators, one per
GPU with NCCL_NVLS_ENABLE=0 unless set) or over CUDA peer copies that the copy engines carry
(transport="peer": no NCCL needed). The default is NCCL where this build has it and it loads,
else peer copies. A group is made on the first call for that set of GPUs and kept for the life
of the process; an NCCL group also keeps each GPU's workspace of its largest call, registered
with NCCL so that the keys go straight between the GPUs' workspaces (primlab.release_workspace()
gives them back). Which transport is the faster, and by how much, is in
kernels/README-multigpu.md. Shards that all lie on one GPU run as virtual ranks over the
library's loopback, the same algorithm on one device. The order is stable over (shard, position). Each output is a view of an array with room for the largest share
(distributed.h); the call waits for the exchange's agreement steps, and the outputs are ready in
the input library's current stream of each GPU.
"""

import glob
import importlib.util
import os
import sys

from . import _primlab as _ext
from ._kinds import kind_of as _kind

__all__ = ["sort", "partition"]


def sort(shards, values=None, *, descending=False, begin_bit=0, end_bit=None, transport=None):
    """Sorts keys (or pairs) spread over shards; returns the list of sorted shards, or
    (keys, values). Types and bit range as primlab.sort; transport: "nccl", "peer" or None."""
    kind, streams, exchange = _setup(shards, transport)
    keys, vals, _, counts = _ext.distributed_sort(list(shards), _listed(values), kind.empty, streams, exchange,
                                                  descending, begin_bit, end_bit)
    keys = _trimmed(kind, keys, counts)
    return keys if values is None else (keys, _trimmed(kind, vals, counts))


def partition(shards, values=None, *, begin_bit=0, num_bits=8, transport=None):
    """Stable radix partition by bits [begin_bit, begin_bit + num_bits) over the shards, the ranks
    balanced to within a key; returns (keys, offsets) or (keys, values, offsets), lists with one
    entry per shard; a shard's offsets are those of the partitions in its own result."""
    kind, streams, exchange = _setup(shards, transport)
    keys, vals, offsets, counts = _ext.distributed_partition(list(shards), _listed(values), kind.empty, streams,
                                                             exchange, begin_bit, num_bits)
    offsets = [kind.result(o) for o in offsets]
    keys = _trimmed(kind, keys, counts)
    return (keys, offsets) if values is None else (keys, _trimmed(kind, vals, counts), offsets)


def _listed(values):
    return None if values is None else list(values)


def _trimmed(kind, outputs, counts):
    return [kind.result(o[:c]) for o, c in zip(outputs, counts)]


def _setup(shards, transport):
    """The shards' library, each one's current stream, and the exchange: None (the loopback) for
    one GPU, else the group of their GPUs over the transport."""
    if transport not in (None, "nccl", "peer"):
        raise ValueError(f"primlab.distributed: transport is 'nccl', 'peer' or None, not {transport!r}")
    shards = list(shards)
    if not shards:
        raise ValueError("primlab.distributed: no shards")
    kind = _kind(shards[0])
    streams = [_ext.current_stream(s) for s in shards]
    devices = [_ext.device_of(s) for s in shards]
    if len(set(devices)) == 1:
        return kind, streams, None
    if len(set(devices)) != len(devices):
        raise ValueError(f"primlab.distributed: shards on several GPUs go one to a GPU; they are on devices {devices}")
    if transport is None:
        try:
            nccl = _nccl()
        except RuntimeError:  # no NCCL in this build, or none that loads
            return kind, streams, _ext.peer_group(devices)
        return kind, streams, nccl.group(devices)
    return kind, streams, _nccl().group(devices) if transport == "nccl" else _ext.peer_group(devices)


def _release_workspace():
    """Gives back the registered workspaces the NCCL groups keep, where primlab._nccl is loaded."""
    module = sys.modules.get(__package__ + "._nccl")
    if module is not None:
        module.release_workspace()


def _nccl():
    """primlab._nccl, which links libnccl.so.2: from the loader's path, else from PyPI's NCCL
    (nvidia-nccl-cu13, which PyTorch brings), loaded by its path first."""
    if importlib.util.find_spec("primlab._nccl") is None:
        raise RuntimeError("primlab.distributed: this build of primlab found no NCCL, so shards on several GPUs "
                           "cannot be exchanged (rebuild with NCCL: PRIMLAB_NCCL_ROOT=<dir>); shards on one GPU run "
                           "over the loopback")
    try:
        from . import _nccl
    except ImportError as error:
        found = [p for root in sys.path for p in glob.glob(os.path.join(root, "nvidia", "*", "lib", "libnccl.so.2"))]
        if not found:
            raise RuntimeError(f"primlab.distributed: NCCL cannot be loaded ({error}); install nvidia-nccl-cu13 or put "
                               "libnccl.so.2 on LD_LIBRARY_PATH") from None
        import ctypes

        ctypes.CDLL(found[0], mode=ctypes.RTLD_GLOBAL)
        from . import _nccl
    return _nccl
