// The upfront histogram of Onesweep radix sort and partition: the digit counts of every pass in
// one read of the keys (16-byte loads, grid-stride). hist[p * 256 + d] += keys whose pass-p digit
// is d. Either the caller zeroes hist, or the kernel is launched cooperatively and zeroes it first,
// with the passes' tile counters and look-back words (ZeroFirst).
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "thread/radix_key_codec.cuh"

namespace primlab::detail::onesweep {

// One shared atomic per key and pass. Run-length aggregation of each thread's digits (so that
// equal keys would not serialise) was instruction-bound, 0.92 ms for 2^28 u32 keys; the H200's
// shared atomics take same-address lanes in one go, so the plain form costs less on every input
// (bench/NOTES-sort.md).
template <class Bits>
__device__ __forceinline__ void count_key(Bits b, int begin_bit, int passes, std::uint32_t last_mask,
                                          std::uint32_t* s_hist) {
  constexpr int kMaxPasses = sizeof(Bits);
#pragma unroll
  for (int p = 0; p < kMaxPasses; ++p) {
    if (p < passes) {
      const std::uint32_t d = digit_of(b, begin_bit + kRadixBits * p, p == passes - 1 ? last_mask : 0xffu);
      atomicAdd(&s_hist[p * kRadix + d], 1u);
    }
  }
}

// Words the kernel zeroes before it counts (16-byte aligned, a whole number of 16-byte groups,
// hist among them); it must then be launched cooperatively. Empty: hist was zeroed by the caller.
// A small sort is bound by the host's launches, and this saves the memset's.
struct ZeroFirst {
  std::uint32_t* words = nullptr;
  std::size_t count = 0;
};

template <class Bits, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, int begin_bit, int passes,
                     std::uint32_t last_mask, Bits enc0, Bits enc1, std::uint32_t* hist, ZeroFirst zero) {
  constexpr int kMaxPasses = sizeof(Bits);
  constexpr int kVec = 16 / sizeof(Bits);
  __shared__ std::uint32_t s_hist[kMaxPasses * kRadix];
  for (int i = threadIdx.x; i < kMaxPasses * kRadix; i += THREADS) s_hist[i] = 0;
  if (zero.count > 0) {
    uint4* z = reinterpret_cast<uint4*>(zero.words);
    for (std::size_t i = blockIdx.x * std::size_t(THREADS) + threadIdx.x; i < zero.count / 4;
         i += std::size_t(gridDim.x) * THREADS)
      z[i] = make_uint4(0, 0, 0, 0);
    cooperative_groups::this_grid().sync();
  }
  __syncthreads();
  // The vector part: whole 16-byte groups from the first 16-byte boundary.
  const std::int64_t head = std::min<std::int64_t>(
      n, ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / sizeof(Bits));
  const std::int64_t vecs = (n - head) / kVec;
  const uint4* v = reinterpret_cast<const uint4*>(keys + head);
  const std::int64_t chunk = std::int64_t(THREADS) * ITEMS;
  for (std::int64_t base = blockIdx.x * chunk; base < vecs; base += std::int64_t(gridDim.x) * chunk) {
    uint4 x[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const std::int64_t idx = base + i * THREADS + threadIdx.x;
      x[i] = idx < vecs ? __ldg(v + idx) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (base + i * THREADS + threadIdx.x < vecs) {
        Bits kk[kVec];
        memcpy(kk, &x[i], 16);
#pragma unroll
        for (int e = 0; e < kVec; ++e) count_key(xor_by_top(kk[e], enc0, enc1), begin_bit, passes, last_mask, s_hist);
      }
    }
  }
  // The scalar head and tail.
  const std::int64_t tail_begin = head + vecs * kVec;
  const std::int64_t g = std::int64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (g < head) count_key(xor_by_top(keys[g], enc0, enc1), begin_bit, passes, last_mask, s_hist);
  if (tail_begin + g < n) count_key(xor_by_top(keys[tail_begin + g], enc0, enc1), begin_bit, passes, last_mask, s_hist);
  __syncthreads();
  for (int i = threadIdx.x; i < passes * kRadix; i += THREADS)
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);
}

}  // namespace primlab::detail::onesweep
