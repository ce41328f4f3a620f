// Harris's kernel 7 ("Optimizing Parallel Reduction in CUDA"), the kernel and its host code written
// once: each thread first sums many elements in a grid-stride loop, then the block runs kernel 6's
// unrolled tree. Brent's theorem: O(n / log n) threads doing O(log n) sequential adds each keep the
// work O(n) and the steps O(log n), and far fewer blocks pay the tree's barriers. The grid is
// ceil(n / (blockSize * items)) blocks, each thread summing `items` elements (rounded up to even:
// one round of the loop adds two); the launches repeat over the blocks' partial sums until one
// value is left (reduce_passes.cuh). For the probe, thread tid's register `sum` is element
// blockIdx.x * 2 * blockSize + tid of the registers row, the first element it loads.
#pragma once
#include <cstdint>

#include "lab/algorithms/reduce/block_reduce_unrolled.cuh"
#include "lab/algorithms/reduce/reduce_passes.cuh"

namespace primlab::lab {

// listing: reduce7
// 7: many elements per thread (a grid-stride loop in registers), then the unrolled tree.
template <unsigned blockSize, class T, class Probe>
__global__ void reduce7(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  __shared__ T sdata[blockSize < 64 ? 2 * blockSize : blockSize];
  const unsigned tid = threadIdx.x;
  const std::int64_t gridSize = 2 * std::int64_t(blockSize) * gridDim.x;
  probe.on_chip(kReduceShared, sdata, std::int64_t(blockIdx.x) * 2 * blockSize, blockSize < 64 ? 2 * blockSize : blockSize);
  T sum = T(0);
  probe.branch(std::int64_t(blockIdx.x) * 2 * blockSize + tid < n);
  for (std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockSize + tid; i < n; i += gridSize) {  // step: round
    sum += i + blockSize < n ? in[i] + in[i + blockSize] : in[i];  // step: round
    probe.op(int((i - std::int64_t(blockIdx.x) * 2 * blockSize - tid) / gridSize) * 2, OpKind::Add, kReduceIn, i,
             kReduceRegs, std::int64_t(blockIdx.x) * 2 * blockSize + tid);
    probe.op(int((i - std::int64_t(blockIdx.x) * 2 * blockSize - tid) / gridSize) * 2 + 1, OpKind::Add, kReduceIn,
             i + blockSize < n ? i + blockSize : -1, kReduceRegs,
             i + blockSize < n ? std::int64_t(blockIdx.x) * 2 * blockSize + tid : -1);
    probe.count(kGlobalRead, i + blockSize < n ? 2 * sizeof(T) : sizeof(T));
    probe.count(kAdds, i + blockSize < n ? 2 : 1);
    probe.branch(i + gridSize < n);
  }
  probe.value(kReduceRegs, std::int64_t(blockIdx.x) * 2 * blockSize + tid, sum);
  sdata[tid] = sum;  // step: store
  probe.op(int((n + gridSize - 1) / gridSize) * 2, OpKind::Move, kReduceRegs,
           std::int64_t(blockIdx.x) * 2 * blockSize + tid, kReduceShared, std::int64_t(blockIdx.x) * 2 * blockSize + tid);
  probe.shared_access(tid);
  if (blockSize < 64) sdata[tid + blockSize] = T(0);  // padding read by the unrolled warp's upper lanes  // step: store
  probe.op(int((n + gridSize - 1) / gridSize) * 2 + 1, OpKind::Write, kReduceIn, -1, kReduceShared,
           blockSize < 64 ? std::int64_t(blockIdx.x) * 2 * blockSize + tid + blockSize : -1);
  probe.shared_access(blockSize < 64 ? int(tid + blockSize) : -1);
  __syncthreads();
  probe.barrier();
  block_reduce_unrolled<blockSize>(sdata, tid, probe);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? std::int64_t(blockIdx.x) * 2 * blockSize : -1, kReduceOut,
           tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}

// Sums n elements of d_in into *d_out in blocks of `block` threads (a power of two up to 1024),
// each thread summing `items` elements, with a workspace of reduce_passes_bytes<T>(n, block,
// (items + 1) / 2).
template <class T, class Probe = NoProbe>
Status reduce7_sum(const T* d_in, T* d_out, std::int64_t n, int block, Workspace ws, cudaStream_t stream,
                   int items, Probe probe = {}) {
  if (items < 1 || items > 4096) return Status::InvalidArgument;
  return reduce_passes(d_in, d_out, n, block, (items + 1) / 2, ws, stream,
                       [&](auto size, const T* src, T* dst, std::int64_t len, unsigned blocks) {
                         probe.launch(stream);
                         reduce7<decltype(size)::value><<<blocks, size(), 0, stream>>>(src, dst, len, probe);
                       });
}
// listing: end

}  // namespace primlab::lab
