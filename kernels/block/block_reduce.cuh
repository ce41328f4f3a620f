// Block-wide reduction: warp butterflies, then one warp over the warp totals.
#pragma once
#include <cuda_runtime.h>

#include "warp/warp_scan.cuh"

namespace primlab::detail {

// The operator over the block's values; the result is valid in thread 0 (and in warp 0).
// Contains a __syncthreads(); every thread of the block must call it.
template <int kThreads, class T, class Op>
__device__ __forceinline__ T block_reduce(T x, Op op) {
  constexpr int kWarps = kThreads / 32;
  __shared__ T s_warp[kWarps];
  x = warp_reduce(x, op);
  if (kWarps == 1) return x;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) s_warp[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < kWarps ? s_warp[lane] : Op::template identity<T>();
    x = warp_reduce(x, op);
  }
  return x;
}

}  // namespace primlab::detail
