// Harris's kernel 6 ("Optimizing Parallel Reduction in CUDA"), the kernel and its host code written
// once: reduce5 with the whole tree unrolled by the block size, a template parameter. Each launch
// leaves one partial sum per block of 2 * blockSize elements and the launches repeat until one
// value is left (reduce_passes.cuh). The timed form runs it with NoProbe, the stepped form with the
// lab's recording probe, and the Step tab lists it.
#pragma once
#include <cstdint>

#include "lab/algorithms/reduce/block_reduce_unrolled.cuh"
#include "lab/algorithms/reduce/reduce_passes.cuh"

namespace primlab::lab {

// listing: reduce6
// 6: first add during the load (as reduce4), then the unrolled tree.
template <unsigned blockSize, class T, class Probe>
__global__ void reduce6(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  __shared__ T sdata[blockSize < 64 ? 2 * blockSize : blockSize];
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockSize + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, blockSize < 64 ? 2 * blockSize : blockSize);
  T v = i < n ? in[i] : T(0);  // step: load
  if (i + blockSize < n) v += in[i + blockSize];  // step: load
  sdata[tid] = v;  // step: load
  probe.branch(i + blockSize < n);
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.op(1, OpKind::Add, kReduceIn, i + blockSize < n ? i + blockSize : -1, kReduceShared,
           i + blockSize < n ? i : -1);
  probe.count(kGlobalRead, (i < n ? sizeof(T) : 0) + (i + blockSize < n ? sizeof(T) : 0));
  probe.count(kAdds, i + blockSize < n ? 1 : 0);
  probe.shared_access(tid);
  if (blockSize < 64) sdata[tid + blockSize] = T(0);  // padding read by the unrolled warp's upper lanes  // step: load
  probe.op(2, OpKind::Write, kReduceIn, -1, kReduceShared, blockSize < 64 ? i + blockSize : -1);
  probe.shared_access(blockSize < 64 ? int(tid + blockSize) : -1);
  __syncthreads();
  probe.barrier();
  block_reduce_unrolled<blockSize>(sdata, tid, probe);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}

// Sums n elements of d_in into *d_out in blocks of `block` threads (a power of two up to 1024),
// with a workspace of reduce_passes_bytes<T>(n, block, 1).
template <class T, class Probe = NoProbe>
Status reduce6_sum(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                   Probe probe = {}) {
  return reduce_passes(d_in, d_out, n, block, 1, ws, stream,
                       [&](auto size, const T* src, T* dst, std::int64_t len, unsigned blocks) {
                         probe.launch(stream);
                         reduce6<decltype(size)::value><<<blocks, size(), 0, stream>>>(src, dst, len, probe);
                       });
}
// listing: end

}  // namespace primlab::lab
