// LSD radix sort with multi-bit digits, the kernels and the host code that launches them, written
// once: the stepped form runs them with the lab's recording probe, and the Step tab lists this file.
// Per digit of D bits (R = 2^D values), from the lowest up: each block takes a tile of T = max(B, R)
// keys and counts how many have each digit (thread d counts digit d: no atomics), the counts are
// scanned digit-major over the blocks (counts[d * blocks + block], radix_scan.cuh) into each
// (digit, block)'s first output position, and each key moves there plus its rank among the keys of
// its tile before it with the same digit: a stable scatter, ping-ponging between the output and a
// second buffer. Keys are compared through their sortable bits (the lecture's flip: int32 sign
// flipped, floats through flipFloat, all bits complemented for a descending sort), taken where the
// digit is read, so the buffers hold the keys themselves. Key-value sorts move each value with its key.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/algorithms/radix/digits/radix_digits_rows.h"
#include "lab/algorithms/radix/radix_scan.cuh"
#include "lab/model/trace.h"
#include "util/cuda_check.cuh"
#include "util/probe.cuh"

namespace primlab::lab::radix {

// The sortable bits of a key: unsigned order equals the key order (positive NaNs after +inf,
// negative NaNs before -inf).
template <bool kDescending>
__device__ __forceinline__ std::uint32_t sortable_bits(std::uint32_t k) {
  return kDescending ? ~k : k;
}
template <bool kDescending>
__device__ __forceinline__ std::uint32_t sortable_bits(std::int32_t k) {
  return sortable_bits<kDescending>(std::uint32_t(k) ^ 0x80000000u);
}
template <bool kDescending>
__device__ __forceinline__ std::uint32_t sortable_bits(float k) {
  const std::uint32_t b = __float_as_uint(k);
  return sortable_bits<kDescending>(b ^ ((0u - (b >> 31)) | 0x80000000u));
}

// listing: radix-digits
// The digit of each key of the block's tile into shared memory; `radix` (no key's digit) past n.
template <bool kDescending, class K, class Probe>
__device__ __forceinline__ void load_digits(const K* keys, std::int64_t n, int shift, int radix, int tile,
                                            std::uint32_t* s_digit, Probe& probe) {
  const std::int64_t base = std::int64_t(blockIdx.x) * tile;
  for (int j = 0; j < tile / int(blockDim.x); ++j) {
    const int p = threadIdx.x + j * blockDim.x;
    const std::int64_t i = base + p;
    s_digit[p] = i < n ? (sortable_bits<kDescending>(keys[i]) >> shift) & (radix - 1) : radix;  // step: digits
    probe.op(j, i < n ? OpKind::Move : OpKind::Write, kDigitsIn, i < n ? i : -1, kDigitsDigit, i);
    probe.value(kDigitsSortable, i < n ? i : -1, i < n ? sortable_bits<kDescending>(keys[i]) : 0u);
    probe.shared_access(p);
    probe.count(kGlobalRead, i < n ? sizeof(K) : 0);
  }
}

// Each block's histogram of its tile: counts[d * gridDim.x + blockIdx.x], thread d counting digit d.
template <bool kDescending, class K, class Probe>
__global__ void digit_histogram_kernel(const K* keys, std::int64_t n, int shift, int radix, std::uint32_t* counts,
                                       Probe probe) {
  extern __shared__ std::uint32_t s_digit[];
  const int tile = max(int(blockDim.x), radix);
  probe.on_chip(kDigitsDigit, s_digit, std::int64_t(blockIdx.x) * tile, tile);
  load_digits<kDescending>(keys, n, shift, radix, tile, s_digit, probe);
  __syncthreads();
  probe.barrier();
  for (int j = 0; j < (radix + int(blockDim.x) - 1) / int(blockDim.x); ++j) {
    const int d = threadIdx.x + j * blockDim.x;
    probe.branch(d < radix);
    if (d < radix) {
      std::uint32_t count = 0;
      for (int q = 0; q < tile; ++q) count += s_digit[q] == std::uint32_t(d);  // step: histogram
      counts[d * gridDim.x + blockIdx.x] = count;  // step: histogram
      probe.op(j, OpKind::Write, kDigitsDigit, -1, kDigitsCounts, std::int64_t(d) * gridDim.x + blockIdx.x);
      probe.count(kGlobalWrite, 4);
    }
  }
}

// The stable scatter: each key to offsets[d * gridDim.x + blockIdx.x] plus its rank, the number of
// keys before it in the tile with its digit d.
template <bool kDescending, bool kPairs, class K, class V, class Probe>
__global__ void digit_scatter_kernel(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::int64_t n,
                                     int shift, int radix, const std::uint32_t* offsets, Probe probe) {
  extern __shared__ std::uint32_t s_digit[];
  const int tile = max(int(blockDim.x), radix);
  const std::int64_t base = std::int64_t(blockIdx.x) * tile;
  probe.on_chip(kDigitsDigit, s_digit, base, tile);
  load_digits<kDescending>(keys_in, n, shift, radix, tile, s_digit, probe);
  __syncthreads();
  probe.barrier();
  for (int j = 0; j < tile / int(blockDim.x); ++j) {
    const int p = threadIdx.x + j * blockDim.x;
    const std::int64_t i = base + p;
    probe.branch(i < n);
    if (i < n) {
      const std::uint32_t d = s_digit[p];
      std::uint32_t rank = 0;
      for (int q = 0; q < p; ++q) rank += s_digit[q] == d;  // step: scatter
      const std::uint32_t dst = offsets[d * gridDim.x + blockIdx.x] + rank;  // step: scatter
      probe.value(kDigitsDest, i, dst);
      keys_out[dst] = keys_in[i];  // step: scatter
      probe.op(j, OpKind::Move, kDigitsIn, i, kDigitsOut, dst);
      if constexpr (kPairs) values_out[dst] = values_in[i];
      probe.count(kAdds, 1);
      probe.count(kGlobalRead, 4 + sizeof(K) + (kPairs ? sizeof(V) : 0));
      probe.count(kGlobalWrite, sizeof(K) + (kPairs ? sizeof(V) : 0));
    }
  }
}
// listing: end

// The arrays the sort works in besides its input and output: second key and value buffers, the
// counts and offsets (R words a tile), and the scan's block sums.
template <class K, class V>
struct DigitsArrays {
  K* keys_alt;
  V* values_alt;
  std::uint32_t *counts, *offsets, *sums;
};

// Any power of two from 1 to 1024 threads (the scan's trees halve it), 2- to 8-bit digits.
inline bool digits_valid(int block, int digit_bits) {
  return block >= 1 && block <= 1024 && (block & (block - 1)) == 0 && digit_bits >= 2 && digit_bits <= 8;
}

// Sorts n keys of d_keys_in into d_keys_out (not in place), and with them (kPairs) the values.
template <class K, class V, bool kDescending, bool kPairs, class Probe = NoProbe>
Status radix_digits_sort(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t n,
                         int block, int digit_bits, const DigitsArrays<K, V>& a, cudaStream_t stream,
                         Probe probe = {}) {
  static_assert(sizeof(K) == 4, "32-bit keys");
  if (n < 0 || !digits_valid(block, digit_bits)) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_keys_in || !d_keys_out || d_keys_in == d_keys_out) return Status::InvalidArgument;
  if (kPairs && (!d_values_in || !d_values_out || d_values_in == d_values_out)) return Status::InvalidArgument;
  // listing: radix-digits
  const int radix = 1 << digit_bits;
  const int tile = std::max(block, radix);
  const unsigned blocks = unsigned(blocks_for(n, tile));
  const int passes = (32 + digit_bits - 1) / digit_bits;
  const K* keys = d_keys_in;
  const V* values = d_values_in;
  for (int p = 0; p < passes; ++p) {
    const int shift = p * digit_bits;
    const bool to_out = (passes - 1 - p) % 2 == 0;  // the passes alternate so that the last writes the output
    K* keys_dst = to_out ? d_keys_out : a.keys_alt;
    V* values_dst = to_out ? d_values_out : a.values_alt;
    probe.launch(stream);
    digit_histogram_kernel<kDescending><<<blocks, block, tile * sizeof(std::uint32_t), stream>>>(
        keys, n, shift, radix, a.counts, probe);
    PRIMLAB_LAUNCH_TRY();
    const Status st = radix_exclusive_scan(a.counts, a.offsets, std::int64_t(radix) * blocks, block, a.sums, stream,
                                           probe);
    if (st != Status::Success) return st;
    probe.launch(stream);
    digit_scatter_kernel<kDescending, kPairs><<<blocks, block, tile * sizeof(std::uint32_t), stream>>>(
        keys, keys_dst, values, values_dst, n, shift, radix, a.offsets, probe);
    PRIMLAB_LAUNCH_TRY();
    keys = keys_dst;
    values = values_dst;
  }
  // listing: end
  return Status::Success;
}

}  // namespace primlab::lab::radix
