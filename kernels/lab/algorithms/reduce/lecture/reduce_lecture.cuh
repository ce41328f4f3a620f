// The lecture's reductions reduce1..reduce5 (Harris, "Optimizing Parallel Reduction in CUDA") and a
// warp-shuffle reduction, the kernels and the host loop that launches them, written once: the
// timed form runs them with NoProbe, the stepped form with the lab's recording probe, and the Step
// tab lists this file. Each launch leaves one partial sum per block and the loop launches the same
// kernel again over the partial sums until one block is left. The probe's rows (probe_rows.h): a
// block's sdata[j] is element i - tid + j of the shared row, i the element its thread tid loads
// first; the shuffle's v of a thread and s_warp[w] of a block sit at `base` and at the block's
// first element + w.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/algorithms/reduce/probe_rows.h"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab {

// listing: reduce1
// 1: interleaved addressing, divergent branch (tid % (2s) == 0).
template <class T, class Probe>
__global__ void reduce1(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);  // step: load
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
  probe.shared_access(tid);
  __syncthreads();
  probe.barrier();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];  // step: level
    probe.branch(tid % (2 * s) == 0);
    probe.shared_access(tid % (2 * s) == 0 ? int(tid) : -1);
    probe.shared_access(tid % (2 * s) == 0 ? int(tid + s) : -1);
    probe.shared_access(tid % (2 * s) == 0 ? int(tid) : -1);
    probe.op(0, OpKind::Add, kReduceShared, tid % (2 * s) == 0 ? i + s : -1, kReduceShared,
             tid % (2 * s) == 0 ? i : -1);
    probe.count(kAdds, tid % (2 * s) == 0 ? 1 : 0);
    __syncthreads();
    probe.barrier();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}
// listing: end

// listing: reduce2
// 2: interleaved addressing, strided index (no divergence, bank conflicts).
template <class T, class Probe>
__global__ void reduce2(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);  // step: load
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
  probe.shared_access(tid);
  __syncthreads();
  probe.barrier();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];  // step: level
    probe.branch(index < blockDim.x);
    probe.shared_access(index < blockDim.x ? int(index) : -1);
    probe.shared_access(index < blockDim.x ? int(index + s) : -1);
    probe.shared_access(index < blockDim.x ? int(index) : -1);
    probe.op(0, OpKind::Add, kReduceShared, index < blockDim.x ? i - tid + index + s : -1, kReduceShared,
             index < blockDim.x ? i - tid + index : -1);
    probe.count(kAdds, index < blockDim.x ? 1 : 0);
    __syncthreads();
    probe.barrier();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}
// listing: end

// listing: reduce3
// 3: sequential addressing (conflict-free; half the threads idle from the first step).
template <class T, class Probe>
__global__ void reduce3(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);  // step: load
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
  probe.shared_access(tid);
  __syncthreads();
  probe.barrier();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // step: level
    probe.branch(tid < s);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.shared_access(tid < s ? int(tid + s) : -1);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.op(0, OpKind::Add, kReduceShared, tid < s ? i + s : -1, kReduceShared, tid < s ? i : -1);
    probe.count(kAdds, tid < s ? 1 : 0);
    __syncthreads();
    probe.barrier();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}
// listing: end

// listing: reduce4
// 4: first add during the load (each block covers 2 * blockDim.x elements).
template <class T, class Probe>
__global__ void reduce4(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockDim.x + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, blockDim.x);
  T v = i < n ? in[i] : T(0);  // step: load
  if (i + blockDim.x < n) v += in[i + blockDim.x];  // step: load
  sdata[tid] = v;  // step: load
  probe.branch(i + blockDim.x < n);
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.op(1, OpKind::Add, kReduceIn, i + blockDim.x < n ? i + blockDim.x : -1, kReduceShared,
           i + blockDim.x < n ? i : -1);
  probe.count(kGlobalRead, (i < n ? sizeof(T) : 0) + (i + blockDim.x < n ? sizeof(T) : 0));
  probe.count(kAdds, i + blockDim.x < n ? 1 : 0);
  probe.shared_access(tid);
  __syncthreads();
  probe.barrier();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // step: level
    probe.branch(tid < s);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.shared_access(tid < s ? int(tid + s) : -1);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.op(0, OpKind::Add, kReduceShared, tid < s ? i + s : -1, kReduceShared, tid < s ? i : -1);
    probe.count(kAdds, tid < s ? 1 : 0);
    __syncthreads();
    probe.barrier();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}
// listing: end

// listing: reduce5
// The last warp without barriers (volatile shared memory; __syncwarp orders the steps, which
// independent thread scheduling needs since Volta).
// Blocks smaller than 64 threads start at half the block.
template <class T, class Probe>
__device__ void warp_reduce_volatile(volatile T* sdata, unsigned tid, Probe& probe) {
  const unsigned lanes = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;
  T v = sdata[tid];
  probe.shared_access(tid);
  for (unsigned s = blockDim.x < 64 ? blockDim.x / 2 : 32; s > 0; s >>= 1) {
    v += sdata[tid + s];  // step: unrolled
    probe.shared_access(tid + s);
    __syncwarp(lanes);  // step: unrolled
    sdata[tid] = v;  // step: unrolled
    probe.shared_access(tid);
    probe.op(0, OpKind::Add, kReduceShared, std::int64_t(blockIdx.x) * 2 * blockDim.x + tid + s, kReduceShared,
             std::int64_t(blockIdx.x) * 2 * blockDim.x + tid);
    probe.count(kAdds, 1);
    __syncwarp(lanes);  // step: unrolled
    probe.warp_barrier();
  }
}

// 5: reduce4 with the last warp unrolled.
template <class T, class Probe>
__global__ void reduce5(const T* __restrict__ in, T* __restrict__ out, std::int64_t n, Probe probe) {
  extern __shared__ unsigned char s_raw[];
  T* sdata = reinterpret_cast<T*>(s_raw);
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t(blockIdx.x) * 2 * blockDim.x + tid;
  probe.on_chip(kReduceShared, sdata, i - tid, 2 * blockDim.x);
  T v = i < n ? in[i] : T(0);  // step: load
  if (i + blockDim.x < n) v += in[i + blockDim.x];  // step: load
  sdata[tid] = v;  // step: load
  probe.branch(i + blockDim.x < n);
  probe.op(0, i < n ? OpKind::Move : OpKind::Write, kReduceIn, i < n ? i : -1, kReduceShared, i);
  probe.op(1, OpKind::Add, kReduceIn, i + blockDim.x < n ? i + blockDim.x : -1, kReduceShared,
           i + blockDim.x < n ? i : -1);
  probe.count(kGlobalRead, (i < n ? sizeof(T) : 0) + (i + blockDim.x < n ? sizeof(T) : 0));
  probe.count(kAdds, i + blockDim.x < n ? 1 : 0);
  probe.shared_access(tid);
  sdata[tid + blockDim.x] = T(0);  // padding read by the unrolled warp's upper lanes  // step: load
  probe.op(2, OpKind::Write, kReduceIn, -1, kReduceShared, i + blockDim.x);
  probe.shared_access(tid + blockDim.x);
  __syncthreads();
  probe.barrier();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // step: level
    probe.branch(tid < s);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.shared_access(tid < s ? int(tid + s) : -1);
    probe.shared_access(tid < s ? int(tid) : -1);
    probe.op(0, OpKind::Add, kReduceShared, tid < s ? i + s : -1, kReduceShared, tid < s ? i : -1);
    probe.count(kAdds, tid < s ? 1 : 0);
    __syncthreads();
    probe.barrier();
  }
  probe.branch(tid < 32);
  if (tid < 32) warp_reduce_volatile(sdata, tid, probe);
  if (tid == 0) out[blockIdx.x] = sdata[0];  // step: write
  probe.branch(tid == 0);
  probe.shared_access(tid == 0 ? 0 : -1);
  probe.op(0, OpKind::Move, kReduceShared, tid == 0 ? i : -1, kReduceOut, tid == 0 ? int(blockIdx.x) : -1);
  probe.count(kGlobalWrite, tid == 0 ? sizeof(T) : 0);
}
// listing: end

// listing: reduce-shuffle
// 6: grid-stride accumulation of `items` elements per thread, then warp shuffles.
template <class T, class Probe>
__global__ void reduce_shuffle(const T* __restrict__ in, T* __restrict__ out, std::int64_t n,
                               int items, Probe probe) {
  __shared__ T s_warp[32];
  const std::int64_t per_block = std::int64_t(blockDim.x) * items;
  const std::int64_t base = std::int64_t(blockIdx.x) * per_block + threadIdx.x;
  T v = T(0);
  for (int k = 0; k < items; ++k) {
    const std::int64_t i = base + std::int64_t(k) * blockDim.x;
    if (i < n) v += in[i];  // step: load
    probe.branch(i < n);
    probe.op(int(k), OpKind::Add, kReduceIn, i < n ? i : -1, kReduceRegs, i < n ? base : -1);  // int(k): NoProbe bound to the loop counter itself changes the timed SASS
    probe.count(kGlobalRead, i < n ? sizeof(T) : 0);
    probe.count(kAdds, i < n ? 1 : 0);
  }
  probe.value(kReduceRegs, base, v);
  probe.warp_barrier();
  // A block smaller than a warp shuffles over its own lanes only and is done.
  const unsigned width = blockDim.x < 32 ? blockDim.x : 32;
  const unsigned lanes = width == 32 ? 0xffffffffu : (1u << width) - 1;
  for (unsigned d = width / 2; d > 0; d >>= 1) {
    v += __shfl_down_sync(lanes, v, d, width);  // step: shuffle
    probe.op(0, OpKind::Add, kReduceRegs, (threadIdx.x & 31) + d < width ? base + d : base, kReduceRegs, base);
    probe.count(kAdds, 1);
    probe.value(kReduceRegs, base, v);
    probe.warp_barrier();
  }
  if (blockDim.x <= 32) {
    if (threadIdx.x == 0) out[blockIdx.x] = v;  // step: write (one warp)
    probe.branch(threadIdx.x == 0);
    probe.op(0, OpKind::Move, kReduceRegs, threadIdx.x == 0 ? base : -1, kReduceOut,
             threadIdx.x == 0 ? int(blockIdx.x) : -1);
    probe.count(kGlobalWrite, threadIdx.x == 0 ? sizeof(T) : 0);
    return;
  }
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  probe.on_chip(kReduceWarpSums, s_warp, base - threadIdx.x, blockDim.x >> 5);
  if (lane == 0) s_warp[warp] = v;  // step: warp sums
  probe.branch(lane == 0);
  probe.shared_access(lane == 0 ? warp : -1);
  probe.op(0, OpKind::Move, kReduceRegs, lane == 0 ? base : -1, kReduceWarpSums,
           lane == 0 ? base - threadIdx.x + warp : -1);
  __syncthreads();
  probe.barrier();
  probe.branch(warp == 0);
  if (warp == 0) {
    v = lane < int(blockDim.x >> 5) ? s_warp[lane] : T(0);  // step: warp load
    probe.shared_access(lane < int(blockDim.x >> 5) ? lane : -1);
    probe.op(0, lane < int(blockDim.x >> 5) ? OpKind::Move : OpKind::Write, kReduceWarpSums,
             lane < int(blockDim.x >> 5) ? base - threadIdx.x + lane : -1, kReduceRegs, base);
    probe.value(kReduceRegs, base, v);
    probe.warp_barrier();
    for (int d = 16; d > 0; d >>= 1) {
      v += __shfl_down_sync(0xffffffffu, v, d);  // step: shuffle sums
      probe.op(0, OpKind::Add, kReduceRegs, lane + d < 32 ? base + d : base, kReduceRegs, base);
      probe.count(kAdds, 1);
      probe.value(kReduceRegs, base, v);
      probe.warp_barrier();
    }
    if (lane == 0) out[blockIdx.x] = v;  // step: write
    probe.branch(lane == 0);
    probe.op(0, OpKind::Move, kReduceRegs, lane == 0 ? base : -1, kReduceOut, lane == 0 ? int(blockIdx.x) : -1);
    probe.count(kGlobalWrite, lane == 0 ? sizeof(T) : 0);
  }
}
// listing: end

// Elements one block of b threads covers.
inline std::int64_t reduce_lecture_per_block(int variant, int b, int items) {
  if (variant <= 3) return b;
  if (variant <= 5) return 2 * std::int64_t(b);
  return std::int64_t(b) * items;
}

// The workspace: two ping-pong arrays of one partial sum per block of the first pass (at most n / block).
template <class T>
std::size_t reduce_lecture_workspace_bytes(std::int64_t n, int block) {
  if (n <= 0 || block <= 0) return 0;
  return 2 * std::size_t((n + block - 1) / block) * sizeof(T);
}

// Sums n elements of d_in into *d_out with the lecture's kernel `variant` (1..5, 6: the warp-shuffle
// reduction with items_per_thread elements a thread), in blocks of `block` threads (a power of two
// up to 1024), with a workspace of reduce_lecture_workspace_bytes: its two halves hold the partial
// sums of the passes in turn.
template <class T, class Probe = NoProbe>
Status reduce_lecture(int variant, const T* d_in, T* d_out, std::int64_t n, int block, int items_per_thread,
                      Workspace ws, cudaStream_t stream, Probe probe = {}) {
  const bool pow2 = block >= 1 && block <= 1024 && (block & (block - 1)) == 0;
  if (variant < 1 || variant > 6 || n < 0 || !d_out || !pow2) return Status::InvalidArgument;
  if (variant == 6 && (items_per_thread < 1 || items_per_thread > 4096)) return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(T), stream));
    return Status::Success;
  }
  if (!d_in) return Status::InvalidArgument;
  if (ws.bytes < reduce_lecture_workspace_bytes<T>(n, block) || !ws.ptr) return Status::WorkspaceTooSmall;
  T* buf[2] = {static_cast<T*>(ws.ptr), static_cast<T*>(ws.ptr) + ws.bytes / sizeof(T) / 2};
  const T* src = d_in;
  std::int64_t len = n;
  int which = 0;
  // listing: reduce1 reduce2 reduce3 reduce4 reduce5 reduce-shuffle
  for (int b = block;; b = std::max(b, 2)) {  // a pass over the partial sums must shrink them
    const std::int64_t e = reduce_lecture_per_block(variant, b, items_per_thread);
    const std::int64_t blocks = (len + e - 1) / e;
    T* dst = blocks == 1 ? d_out : buf[which];
    const std::size_t smem = std::size_t(variant == 5 ? 2 * b : b) * sizeof(T);
    const unsigned g = unsigned(blocks);
    probe.launch(stream);
    switch (variant) {
      case 1: reduce1<<<g, b, smem, stream>>>(src, dst, len, probe); break;
      case 2: reduce2<<<g, b, smem, stream>>>(src, dst, len, probe); break;
      case 3: reduce3<<<g, b, smem, stream>>>(src, dst, len, probe); break;
      case 4: reduce4<<<g, b, smem, stream>>>(src, dst, len, probe); break;
      case 5: reduce5<<<g, b, smem, stream>>>(src, dst, len, probe); break;
      default: reduce_shuffle<<<g, b, 0, stream>>>(src, dst, len, items_per_thread, probe); break;
    }
    PRIMLAB_LAUNCH_TRY();
    if (blocks == 1) break;
    src = dst;
    len = blocks;
    which ^= 1;
  }
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab
