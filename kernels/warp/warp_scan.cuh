// Warp-wide inclusive scan and reduction of one value per lane with any associative operator.
#pragma once
#include <cuda_runtime.h>

namespace primlab::detail {

constexpr unsigned kFullMask = 0xffffffffu;

// Inclusive scan across the 32 lanes (Kogge-Stone over shuffles: 5 steps).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T x, Op op) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T y = __shfl_up_sync(kFullMask, x, d);
    if (lane >= d) x = op(y, x);
  }
  return x;
}

// The operator over all 32 lanes, in every lane (butterfly).
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x = op(x, __shfl_xor_sync(kFullMask, x, d));
  return x;
}

}  // namespace primlab::detail
