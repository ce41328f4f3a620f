// The single-pass select kernel (decoupled look-back), templated on its tuning so that the
// tuner (bench/tune/) can instantiate variants.
#pragma once
#include <cstdint>
#include <type_traits>

#include "block/tile_state.cuh"
#include "thread/vector_io.cuh"
#include "warp/warp_scan.cuh"
#include "primlab/ops.h"

namespace primlab::detail {

struct FlagSelector {};  // tag: select by d_flags

template <class T, class Pred>
__device__ __forceinline__ bool selected(const T& x, const std::uint8_t* flags, std::int64_t i,
                                         Pred pred) {
  if constexpr (std::is_same_v<Pred, FlagSelector>) return flags[i] != 0;
  else return pred(x);
}

// [SECTION] Kernel
template <class Tuning, class T, class Pred, class State = CountTileState>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::kMinBlocksPerSm)
select_kernel(const T* __restrict__ d_in, const std::uint8_t* __restrict__ d_flags,
              T* __restrict__ d_out, std::int64_t* d_num_selected, std::int64_t n, Pred pred,
              State state, bool vector_ok, bool zero_first) {
  constexpr int kVec = Tuning::kVec;
  constexpr int kK = Tuning::kVectors;
  constexpr int kWarps = Tuning::kWarps;
  using Vec = Vec16<T>;
  __shared__ T s_items[Tuning::kTileItems];
  __shared__ int s_warp[kWarps];
  __shared__ std::int64_t s_tile_prefix;
  __shared__ int s_tile_count;

  const std::int64_t tile = blockIdx.x;
  const std::int64_t tile_base = tile * Tuning::kTileItems;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t wbase = tile_base + std::int64_t(warp) * Tuning::kWarpItems;
  const bool full = tile_base + Tuning::kTileItems <= n;

  T x[kK][kVec];
  unsigned keep = 0;  // bit k * kVec + j: item j of vector k is kept
  if (full && vector_ok) {
#pragma unroll
    for (int k = 0; k < kK; ++k) {
      Vec v;
      v.u = load16<Tuning::kStreamingLoads>(d_in + wbase + (k * 32 + lane) * kVec);
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[k][j] = v.t[j];
    }
#pragma unroll
    for (int k = 0; k < kK; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j)
        keep |= unsigned(selected(x[k][j], d_flags, wbase + (k * 32 + lane) * kVec + j, pred))
                << (k * kVec + j);
  } else {
#pragma unroll
    for (int k = 0; k < kK; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const std::int64_t i = wbase + (k * 32 + lane) * kVec + j;
        if (i < n) {
          x[k][j] = d_in[i];
          keep |= unsigned(selected(x[k][j], d_flags, i, pred)) << (k * kVec + j);
        }
      }
  }

  // Launched cooperatively with no memset before it: clear this tile's state behind the loads.
  if (zero_first) clear_tile_state_then_sync_grid(state, tile);

  // Positions inside the warp's slice: per row k, a warp scan of the per-lane counts.
  int row_prefix[kK];
  int carry = 0;
#pragma unroll
  for (int k = 0; k < kK; ++k) {
    const int c = __popc((keep >> (k * kVec)) & ((1u << kVec) - 1));
    const int inc = warp_inclusive_scan(c, Sum{});
    row_prefix[k] = carry + inc - c;
    carry += __shfl_sync(kFullMask, inc, 31);
  }
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const int w = lane < kWarps ? s_warp[lane] : 0;
    const int winc = warp_inclusive_scan(w, Sum{});
    const int tile_count = __shfl_sync(kFullMask, winc, kWarps - 1);
    std::int64_t tile_prefix = 0;
    if (tile == 0) {
      if (lane == 0 && gridDim.x > 1) state.publish(0, kTileInclusive, tile_count);
    } else {
      if (lane == 0) state.publish(tile, kTileAggregate, tile_count);
      tile_prefix = look_back<std::int64_t, Tuning::kLookbackWords, Tuning::kLookbackSleepNs, Tuning::kLookbackInitialDelayNs>(state, tile, Sum{});
      if (lane == 0) state.publish(tile, kTileInclusive, tile_prefix + tile_count);
    }
    if (lane < kWarps) s_warp[lane] = winc - w;  // the warp's offset inside the tile
    if (lane == 0) {
      s_tile_prefix = tile_prefix;
      s_tile_count = tile_count;
      if (tile == gridDim.x - 1) *d_num_selected = tile_prefix + tile_count;
    }
  }
  __syncthreads();

  // Gather the kept items in tile order, then write them out contiguously.
  const int woff = s_warp[warp];
#pragma unroll
  for (int k = 0; k < kK; ++k) {
    int pos = woff + row_prefix[k];
#pragma unroll
    for (int j = 0; j < kVec; ++j)
      if (keep & (1u << (k * kVec + j))) s_items[pos++] = x[k][j];
  }
  __syncthreads();
  const int count = s_tile_count;
  T* out = d_out + s_tile_prefix;
  for (int i = threadIdx.x; i < count; i += Tuning::kThreads) store1<Tuning::kStreamingStores>(out + i, s_items[i]);
}

}  // namespace primlab::detail
