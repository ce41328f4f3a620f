// Harris's kernels 6 and 7 end alike: the tree over sdata[0, blockSize) unrolled completely by the
// block size, a template parameter. A block smaller than 64 threads needs sdata[blockSize,
// 2 * blockSize) zeroed: the unrolled warp's upper lanes read there. For the probe, a block's
// sdata[j] is element blockIdx.x * 2 * blockSize + j of the shared row (probe_rows.h).
#pragma once
#include <cstdint>

#include "lab/algorithms/reduce/probe_rows.h"
#include "lab/model/trace.h"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: reduce6 reduce7
// One level: the first s threads add the word s above them, then the block waits.
template <unsigned s, class T, class Probe>
__device__ void tree_level(T* sdata, unsigned tid, Probe& probe) {
  if (tid < s) sdata[tid] += sdata[tid + s];  // step: level
  probe.branch(tid < s);
  probe.shared_access(tid < s ? int(tid) : -1);
  probe.shared_access(tid < s ? int(tid + s) : -1);
  probe.shared_access(tid < s ? int(tid) : -1);
  probe.op(0, OpKind::Add, kReduceShared, tid < s ? std::int64_t(blockIdx.x) * 2 * blockDim.x + tid + s : -1,
           kReduceShared, tid < s ? std::int64_t(blockIdx.x) * 2 * blockDim.x + tid : -1);
  probe.count(kAdds, tid < s ? 1 : 0);
  __syncthreads();  // step: level
  probe.barrier();
}

// One warp-synchronous line: every lane reads, the warp waits, every lane writes (volatile, and
// __syncwarp since Volta's independent thread scheduling).
template <class T, class Probe>
__device__ void warp_line(volatile T* d, unsigned tid, unsigned s, unsigned lanes, Probe& probe) {
  const T v = d[tid] + d[tid + s];  // step: unrolled
  probe.shared_access(tid);
  probe.shared_access(tid + s);
  __syncwarp(lanes);  // step: unrolled
  d[tid] = v;  // step: unrolled
  probe.shared_access(tid);
  probe.op(0, OpKind::Add, kReduceShared, std::int64_t(blockIdx.x) * 2 * blockDim.x + tid + s, kReduceShared,
           std::int64_t(blockIdx.x) * 2 * blockDim.x + tid);
  probe.count(kAdds, 1);
  __syncwarp(lanes);  // step: unrolled
  probe.warp_barrier();
}

// Every `if (blockSize >= ...)` is decided at compile time: no loop counter, no compare of s.
template <unsigned blockSize, class T, class Probe>
__device__ void block_reduce_unrolled(T* sdata, unsigned tid, Probe& probe) {
  if (blockSize >= 1024) tree_level<512>(sdata, tid, probe);  // step: level
  if (blockSize >= 512) tree_level<256>(sdata, tid, probe);  // step: level
  if (blockSize >= 256) tree_level<128>(sdata, tid, probe);  // step: level
  if (blockSize >= 128) tree_level<64>(sdata, tid, probe);  // step: level
  probe.branch(tid < 32);
  if (tid < 32) {
    const unsigned lanes = blockSize >= 32 ? 0xffffffffu : (1u << (blockSize & 31)) - 1;
    if (blockSize >= 64) warp_line<T>(sdata, tid, 32, lanes, probe);  // step: unrolled
    if (blockSize >= 32) warp_line<T>(sdata, tid, 16, lanes, probe);  // step: unrolled
    if (blockSize >= 16) warp_line<T>(sdata, tid, 8, lanes, probe);  // step: unrolled
    if (blockSize >= 8) warp_line<T>(sdata, tid, 4, lanes, probe);  // step: unrolled
    if (blockSize >= 4) warp_line<T>(sdata, tid, 2, lanes, probe);  // step: unrolled
    if (blockSize >= 2) warp_line<T>(sdata, tid, 1, lanes, probe);  // step: unrolled
  }
}
// listing: end

}  // namespace primlab::lab
