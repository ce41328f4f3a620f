// The offsets of a radix partition wider than one pass (9 to 12 bits), found in its output.
#pragma once
#include <cstdint>

#include "thread/radix_key_codec.cuh"
#include "tuning/radix_partition.cuh"

namespace primlab::detail {

// offsets[p] = first index of the partitioned keys whose digit is >= p (p = 0 .. parts).
template <class Bits>
__global__ void __launch_bounds__(RadixPartitionTuning::kOffsetThreads)
    partition_offsets_kernel(const Bits* __restrict__ keys, std::int64_t n, int begin_bit, std::uint32_t mask,
                             Bits enc0, Bits enc1, std::uint32_t* offsets) {
  const std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p > mask + 1) return;
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    const std::uint32_t d = digit_of(xor_by_top(keys[mid], enc0, enc1), begin_bit, mask);
    if (d < p) lo = mid + 1; else hi = mid;
  }
  offsets[p] = static_cast<std::uint32_t>(lo);
}

}  // namespace primlab::detail
