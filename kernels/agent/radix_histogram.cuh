// The upfront histogram of Onesweep radix sort and partition: the digit counts of every pass in
// one read of the keys (16-byte loads, grid-stride). hist[p * 256 + d] += keys whose pass-p digit
// is d. Either the caller zeroes hist, or the kernel is launched cooperatively and zeroes it first,
// with the passes' tile counters and look-back words (ZeroFirst). It takes a probe (util/probe.cuh):
// NoProbe in the library, the lab's recording probe where the Step tab steps one digit pass
// (radix-onesweep), which lists it.
#pragma once
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "thread/radix_key_codec.cuh"
#include "util/probe.cuh"

namespace primlab::detail::onesweep {

// One shared atomic per key and pass. Run-length aggregation of each thread's digits (so that
// equal keys would not serialise) was instruction-bound, 0.92 ms for 2^28 u32 keys; the H200's
// shared atomics take same-address lanes in one go, so the plain form costs less on every input
// (bench/NOTES-sort.md).
// listing: radix-onesweep
template <class Bits>
__device__ __forceinline__ void count_key(Bits b, int begin_bit, int passes, std::uint32_t last_mask,
                                          std::uint32_t* s_hist) {
  constexpr int kMaxPasses = sizeof(Bits);
#pragma unroll
  for (int p = 0; p < kMaxPasses; ++p) {
    if (p < passes) {
      const std::uint32_t d = digit_of(b, begin_bit + kRadixBits * p, p == passes - 1 ? last_mask : 0xffu);  // step: hist count
      atomicAdd(&s_hist[p * kRadix + d], 1u);  // step: hist count
    }
  }
}
// listing: end

// Words the kernel zeroes before it counts (16-byte aligned, a whole number of 16-byte groups,
// hist among them); it must then be launched cooperatively. Empty: hist was zeroed by the caller.
// A small sort is bound by the host's launches, and this saves the memset's.
struct ZeroFirst {
  std::uint32_t* words = nullptr;
  std::size_t count = 0;
};

// listing: radix-onesweep
template <class Bits, int THREADS, int ITEMS, class Probe = NoProbe>
__global__ void __launch_bounds__(THREADS)
    histogram_kernel(const Bits* __restrict__ keys, std::int64_t n, int begin_bit, int passes,
                     std::uint32_t last_mask, Bits enc0, Bits enc1, std::uint32_t* hist, ZeroFirst zero,
                     Probe probe = {}) {
  constexpr int kMaxPasses = sizeof(Bits);
  constexpr int kVec = 16 / sizeof(Bits);
  __shared__ std::uint32_t s_hist[kMaxPasses * kRadix];
  probe.event(OnesweepEvent::kSharedCounts, s_hist);
  for (int i = threadIdx.x; i < kMaxPasses * kRadix; i += THREADS) {  // step: hist clear
    s_hist[i] = 0;                                                     // step: hist clear
    probe.event(OnesweepEvent::kHistClear, i);
  }                                                                    // step: hist clear
  if (zero.count > 0) {
    uint4* z = reinterpret_cast<uint4*>(zero.words);
    for (std::size_t i = blockIdx.x * std::size_t(THREADS) + threadIdx.x; i < zero.count / 4;
         i += std::size_t(gridDim.x) * THREADS)
      z[i] = make_uint4(0, 0, 0, 0);
    cooperative_groups::this_grid().sync();
  }
  __syncthreads();  // step: hist clear
  probe.barrier();
  // The vector part: whole 16-byte groups from the first 16-byte boundary.
  const std::int64_t head = std::min<std::int64_t>(                                      // step: hist count
      n, ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / sizeof(Bits));   // step: hist count
  const std::int64_t vecs = (n - head) / kVec;                                           // step: hist count
  const uint4* v = reinterpret_cast<const uint4*>(keys + head);                          // step: hist count
  const std::int64_t chunk = std::int64_t(THREADS) * ITEMS;                              // step: hist count
  for (std::int64_t base = blockIdx.x * chunk; base < vecs; base += std::int64_t(gridDim.x) * chunk) {  // step: hist count
    uint4 x[ITEMS];                                                                      // step: hist count
#pragma unroll  // step: hist count
    for (int i = 0; i < ITEMS; ++i) {                                                    // step: hist count
      const std::int64_t idx = base + i * THREADS + threadIdx.x;                         // step: hist count
      x[i] = idx < vecs ? __ldg(v + idx) : make_uint4(0, 0, 0, 0);                       // step: hist count
    }                                                                                    // step: hist count
#pragma unroll  // step: hist count
    for (int i = 0; i < ITEMS; ++i) {                                                    // step: hist count
      if (base + i * THREADS + threadIdx.x < vecs) {                                     // step: hist count
        Bits kk[kVec];                                                                   // step: hist count
        memcpy(kk, &x[i], 16);                                                           // step: hist count
#pragma unroll  // step: hist count
        for (int e = 0; e < kVec; ++e) count_key(xor_by_top(kk[e], enc0, enc1), begin_bit, passes, last_mask, s_hist);  // step: hist count
      }                                                                                  // step: hist count
      probe.event(OnesweepEvent::kHistKeys,
                  base + i * THREADS + threadIdx.x < vecs ? head + (base + i * THREADS + threadIdx.x) * kVec : -1,
                  kVec, i);
    }                                                                                    // step: hist count
  }                                                                                      // step: hist count
  // The scalar head and tail.
  const std::int64_t tail_begin = head + vecs * kVec;                                    // step: hist count
  const std::int64_t g = std::int64_t(blockIdx.x) * THREADS + threadIdx.x;               // step: hist count
  if (g < head) count_key(xor_by_top(keys[g], enc0, enc1), begin_bit, passes, last_mask, s_hist);  // step: hist count
  probe.event(OnesweepEvent::kHistKeys, g < head ? g : std::int64_t(-1), 1, ITEMS);
  if (tail_begin + g < n) count_key(xor_by_top(keys[tail_begin + g], enc0, enc1), begin_bit, passes, last_mask, s_hist);  // step: hist count
  probe.event(OnesweepEvent::kHistKeys, tail_begin + g < n ? tail_begin + g : std::int64_t(-1), 1, ITEMS + 1);
  __syncthreads();  // step: hist count
  probe.barrier();
  for (int i = threadIdx.x; i < passes * kRadix; i += THREADS) {  // step: hist merge
    if (s_hist[i]) atomicAdd(&hist[i], s_hist[i]);                // step: hist merge
    probe.event(OnesweepEvent::kHistMerge, i, s_hist[i]);
  }                                                               // step: hist merge
}
// listing: end

}  // namespace primlab::detail::onesweep
