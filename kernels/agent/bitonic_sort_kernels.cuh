// The bitonic sort's kernels: the batched-segment tile, the one-array register tile, and the
// fused global pass (launched by device/bitonic_sort.cu; the network is block/bitonic_network.cuh).
#pragma once
#include <cstdint>

#include "block/bitonic_network.cuh"
#include "thread/radix_key_codec.cuh"
#include "tuning/bitonic_sort.cuh"
#include "util/chained_launch.cuh"

namespace primlab::detail::bitonic {

// Where tile element q of this block lives: segment (blockIdx.x * tile / P + q / P), offset
// q % P; it is real when the offset is below seg_len and the index below n_total.
struct TileMap {
  std::int64_t n_total;
  std::int64_t seg_stride;
  unsigned seg_len;
  unsigned P;
  unsigned tile;
  __device__ __forceinline__ bool global_index(unsigned q, std::int64_t& g) const {
    const unsigned off = q & (P - 1);
    const std::int64_t seg = std::int64_t(blockIdx.x) * (tile / P) + q / P;
    g = seg * seg_stride + off;
    return off < seg_len && g < n_total;
  }
};

template <class Bits>
struct Masks {
  Bits in0, in1, out0, out1;
};

// Batched segments: loads a tile of whole segments (encoding), sorts its P-chunks in shared
// memory, stores it (decoding). In place is fine: a block reads only its tile.
template <class Bits, class VBits, bool PAIRS, int E>
__global__ void __launch_bounds__(BitonicSortTuning::kSegmentMaxThreads)
    segment_tile_kernel(const Bits* kin, Bits* kout, const VBits* vin, VBits* vout, TileMap map, Masks<Bits> m) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Bits* sk = reinterpret_cast<Bits*>(smem_raw);
  VBits* sv = reinterpret_cast<VBits*>(sk + map.tile);
#pragma unroll
  for (int r = 0; r < E; ++r) {
    const unsigned q = threadIdx.x + r * blockDim.x;
    std::int64_t g;
    const bool real = map.global_index(q, g);
    sk[q] = real ? xor_by_top(kin[g], m.in0, m.in1) : ~Bits(0);
    if constexpr (PAIRS) sv[q] = real ? vin[g] : VBits(0);
  }
  __syncthreads();
  bitonic::tile_sort<PAIRS, E>(sk, sv, map.P);
#pragma unroll
  for (int r = 0; r < E; ++r) {
    const unsigned q = threadIdx.x + r * blockDim.x;
    std::int64_t g;
    if (map.global_index(q, g)) {
      kout[g] = xor_by_top(sk[q], m.out0, m.out1);
      if constexpr (PAIRS) vout[g] = sv[q];
    }
  }
}

// One-array tile of 2^(LT + 4) elements: sorts its 2^log_p-chunks (or, merge_only, finishes a
// stage larger than the tile with strides tile/2 .. 1) in registers (see bitonic::rt).
template <class Bits, class VBits, bool PAIRS, int LT>
__global__ void __launch_bounds__(1 << LT)
    array_tile_kernel(const Bits* kin, Bits* kout, const VBits* vin, VBits* vout, std::int64_t n, int log_p,
                      Masks<Bits> m, bool merge_only) {
  namespace rt = bitonic::rt;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Bits* sk = reinterpret_cast<Bits*>(smem_raw);
  VBits* sv = reinterpret_cast<VBits*>(sk + (1 << rt::log_tile<LT>()));
  const std::int64_t base = (std::int64_t(blockIdx.x) << rt::log_tile<LT>()) + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  Bits k[rt::kItems];
  VBits v[rt::kItems];
  chain_wait();
#pragma unroll
  for (int r = 0; r < rt::kItems; ++r) {  // striped, coalesced
    const std::int64_t g = base + (r << LT);
    k[r] = g < n ? xor_by_top(kin[g], m.in0, m.in1) : ~Bits(0);
    if constexpr (PAIRS) v[r] = g < n ? vin[g] : VBits(0);
  }
  chain_release();
  if (merge_only) {
    rt::striped_clean<PAIRS, LT, rt::log_tile<LT>() - 1>(k, v);
    rt::low_clean<PAIRS, LT>(k, v, sk, sv, lane);
  } else {
    rt::striped_to_blocked<PAIRS, LT>(k, v, sk, sv);
    rt::sort_stages<PAIRS, LT, 1>(k, v, sk, sv, log_p, lane);
  }
  rt::blocked_to_striped<PAIRS, LT>(k, v, sk, sv);
#pragma unroll
  for (int r = 0; r < rt::kItems; ++r) {
    const std::int64_t g = base + (r << LT);
    if (g < n) {
      kout[g] = xor_by_top(k[r], m.out0, m.out1);
      if constexpr (PAIRS) vout[g] = v[r];
    }
  }
}

// F fused steps of stage `size` on (encoded) keys in global memory: strides 2^hi .. 2^(hi-F+1),
// the first a flip when `flip`. Each thread owns the 2^F elements its steps connect.
template <class Bits, class VBits, bool PAIRS, int F>
__global__ void __launch_bounds__(BitonicSortTuning::kGlobalThreads)
    global_kernel(Bits* keys, VBits* vals, unsigned n, unsigned size, int hi, bool flip) {
  constexpr int G = 1 << F;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int low = hi - F + 1;
  const unsigned b = ((t >> low) << (hi + 1)) | (t & ((1u << low) - 1));
  if (b >= n) return;  // b is the group's lowest index: all padding
  chain_wait();
  unsigned idx[G];
  Bits x[G];
  VBits v[G];
#pragma unroll
  for (int c = 0; c < G; ++c) {
    unsigned e = b;
#pragma unroll
    for (int k = 0; k < F; ++k)
      if ((c >> (F - 1 - k)) & 1) e ^= (k == 0 && flip) ? (size - 1) : (1u << (hi - k));
    idx[c] = e;
    x[c] = e < n ? keys[e] : ~Bits(0);
    if constexpr (PAIRS) v[c] = e < n ? vals[e] : VBits(0);
  }
  chain_release();
#pragma unroll
  for (int k = 0; k < F; ++k) {
#pragma unroll
    for (int c = 0; c < G; ++c) {
      if (((c >> (F - 1 - k)) & 1) == 0) {
        const int c2 = c | (1 << (F - 1 - k));
        if (idx[c] < idx[c2])
          bitonic::compare_exchange<PAIRS>(x[c], x[c2], v[c], v[c2]);
        else
          bitonic::compare_exchange<PAIRS>(x[c2], x[c], v[c2], v[c]);
      }
    }
  }
#pragma unroll
  for (int c = 0; c < G; ++c) {
    if (idx[c] < n) {
      keys[idx[c]] = x[c];
      if constexpr (PAIRS) vals[idx[c]] = v[c];
    }
  }
}

}  // namespace primlab::detail::bitonic
