// The single-pass scan kernel (decoupled look-back), templated on its tuning so that the
// tuner (bench/tune/) can instantiate variants, and on a probe (util/probe.cuh): NoProbe in the
// library, the lab's recording probe where the Step tab runs it on small tiles (scan-lookback).
#pragma once
#include <cooperative_groups.h>

#include <cstdint>
#include <type_traits>

#include "block/tile_state.cuh"
#include "thread/vector_io.cuh"
#include "util/probe.cuh"
#include "warp/warp_scan.cuh"
#include "primlab/ops.h"

namespace primlab::detail {

// [SECTION] Tile steps
// listing: scan-lookback
// A tile of kTileItems elements: warp w owns kWarpItems consecutive elements, laid out in rows
// of 32 16-byte vectors (lane l of row k holds vector k * 32 + l): every load and store is a
// coalesced 512-byte warp access. A tuning whose rows are narrower than 16-byte vectors (the
// lab's stepped tiles) loads and stores element by element.
template <class Tuning, class T>
constexpr bool kVectorRows = Tuning::kVec * sizeof(T) == 16;

template <class Tuning, class T, class Probe>
__device__ __forceinline__ void scan_load_tile(T (&x)[Tuning::kVectors][Tuning::kVec],
                                               const T* __restrict__ d_in, std::int64_t tile,
                                               std::int64_t n, bool vector_ok, T ident, Probe& probe) {
  constexpr int kVec = Tuning::kVec;
  using Vec = Vec16<T>;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t tile_base = tile * Tuning::kTileItems;
  const std::int64_t wbase = tile_base + std::int64_t(warp) * Tuning::kWarpItems;
  if (kVectorRows<Tuning, T> && tile_base + Tuning::kTileItems <= n && vector_ok) {
#pragma unroll
    for (int k = 0; k < Tuning::kVectors; ++k) {
      Vec v;
      v.u = load16<Tuning::kStreamingLoads>(d_in + wbase + (k * 32 + lane) * kVec);
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[k][j] = v.t[j];
    }
  } else {
#pragma unroll
    for (int k = 0; k < Tuning::kVectors; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const std::int64_t i = wbase + (k * 32 + lane) * kVec + j;
        x[k][j] = i < n ? d_in[i] : ident;  // step: load
        probe.event(ScanEvent::kLoad, i, k * kVec + j, x[k][j]);
      }
  }
}
// listing: end

// Scans one loaded tile: registers, warp, block, then the look-back for the tile's prefix, and
// stores it. s_warp: kWarps elements of shared memory (two __syncthreads inside).
// listing: scan-lookback
template <class Tuning, bool kExclusive, class T, class Op, class State, class Probe>
__device__ __forceinline__ void scan_tile(T (&x)[Tuning::kVectors][Tuning::kVec], T* d_out,
                                          std::int64_t tile, std::int64_t tiles, std::int64_t n,
                                          T init, Op op, const State& state,
                                          bool vector_ok, T* s_warp, Probe& probe) {
  constexpr int kVec = Tuning::kVec;
  constexpr int kK = Tuning::kVectors;
  constexpr int kWarps = Tuning::kWarps;
  using Vec = Vec16<T>;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t tile_base = tile * Tuning::kTileItems;
  const std::int64_t wbase = tile_base + std::int64_t(warp) * Tuning::kWarpItems;
  const bool full = tile_base + Tuning::kTileItems <= n;
  const T ident = Op::template identity<T>();

  // Row k of a warp = 32 consecutive vectors. Scan each vector in registers, the vector totals
  // across the warp, and carry the row totals down the rows.
  T row_prefix[kK];
  T carry = ident;
#pragma unroll
  for (int k = 0; k < kK; ++k) {
#pragma unroll
    for (int j = 1; j < kVec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);  // step: reduce
    const T inc = warp_inclusive_scan(x[k][kVec - 1], op);               // step: reduce
    T exc = __shfl_up_sync(kFullMask, inc, 1);                           // step: reduce
    if (lane == 0) exc = ident;                                          // step: reduce
    row_prefix[k] = k == 0 ? exc : op(carry, exc);                       // step: reduce
    probe.event(ScanEvent::kPrefix, wbase + (k * 32 + lane) * kVec, k, row_prefix[k]);
    const T row_total = __shfl_sync(kFullMask, inc, 31);                 // step: reduce
    carry = k == 0 ? row_total : op(carry, row_total);                   // step: reduce
  }
  probe.shared_access(lane == 0 ? warp : -1);
  if (lane == 0) {
    s_warp[warp] = carry;  // step: reduce
    probe.event(ScanEvent::kSharedWrite, warp, 0, carry);
  }
  __syncthreads();
  probe.barrier();

  if (warp == 0) {
    probe.shared_access(lane < kWarps ? lane : -1);
    const T w = lane < kWarps ? s_warp[lane] : ident;                // step: publish
    probe.event(ScanEvent::kSharedRead, lane < kWarps ? lane : -1, 0, w);
    const T winc = warp_inclusive_scan(w, op);                       // step: publish
    const T tile_total = __shfl_sync(kFullMask, winc, kWarps - 1);  // step: publish
    T wexc = __shfl_up_sync(kFullMask, winc, 1);                     // step: publish
    T tile_prefix;
    bool has_prefix;
    if (tile == 0) {
      tile_prefix = kExclusive ? init : ident;  // step: publish
      has_prefix = kExclusive;                  // step: publish
      if (lane == 0 && tiles > 1) {
        probe.event(ScanEvent::kTilePublish, 0, kTileInclusive, has_prefix ? op(tile_prefix, tile_total) : tile_total);
        state.publish(0, kTileInclusive, has_prefix ? op(tile_prefix, tile_total) : tile_total);  // step: publish
      }
      probe.warp_barrier();
    } else {
      if (lane == 0) {
        probe.event(ScanEvent::kTilePublish, tile, kTileAggregate, tile_total);
        state.publish(tile, kTileAggregate, tile_total);  // step: publish
      }
      probe.warp_barrier();
      tile_prefix = look_back<T, Tuning::kLookbackWords, Tuning::kLookbackSleepNs,             // step: look-back
                              Tuning::kLookbackInitialDelayNs>(state, tile, op, probe);  // step: look-back
      has_prefix = true;  // step: look-back
      if (lane == 0) {
        probe.event(ScanEvent::kTilePublish, tile, kTileInclusive, op(tile_prefix, tile_total));
        state.publish(tile, kTileInclusive, op(tile_prefix, tile_total));  // step: look-back
      }
    }
    __syncwarp();
    probe.shared_access(lane < kWarps ? lane : -1);
    if (lane < kWarps) {
      T p;
      if (lane == 0) p = tile_prefix;                       // step: look-back (warp prefixes)
      else p = has_prefix ? op(tile_prefix, wexc) : wexc;  // step: look-back (warp prefixes)
      s_warp[lane] = p;  // a warp's exclusive prefix in the whole array  // step: look-back (warp prefixes)
      probe.event(ScanEvent::kSharedWrite, lane, 0, p);
    }
  }
  __syncthreads();
  probe.barrier();
  probe.shared_access(warp);
  const T wprefix = s_warp[warp];  // step: scan
  // Warp 0 of tile 0 of an inclusive scan has no prefix: identity keeps the code uniform.

#pragma unroll
  for (int k = 0; k < kK; ++k) {
    const T run = op(wprefix, row_prefix[k]);  // step: scan
    T y[kVec];
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      if (kExclusive) y[j] = j == 0 ? run : op(run, x[k][j - 1]);  // step: scan
      else y[j] = op(run, x[k][j]);                                // step: scan
    }
    if (kVectorRows<Tuning, T> && full && vector_ok) {
      Vec v;
#pragma unroll
      for (int j = 0; j < kVec; ++j) v.t[j] = y[j];
      store16<Tuning::kStreamingStores>(d_out + wbase + (k * 32 + lane) * kVec, v.u);
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const std::int64_t i = wbase + (k * 32 + lane) * kVec + j;
        if (i < n) d_out[i] = y[j];  // step: scan
        probe.event(ScanEvent::kStore, i, j, y[j]);
      }
    }
  }
}

// [SECTION] Kernels
// One tile per block (blockIdx.x order). zero_first: launched cooperatively with no memset before
// it (launch_with_cleared_tile_states), each block clears its tile's state while its tile loads.
// The probe comes after op, in the padding before state, so that NoProbe leaves every other
// parameter at its offset and the library's machine code as it was.
template <class Tuning, class T, class Op, bool kExclusive, class State = TileState<T>, class Probe = NoProbe>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::kMinBlocksPerSm)
scan_kernel(const T* __restrict__ d_in, T* d_out, std::int64_t n, T init, Op op, Probe probe, State state,
            bool vector_ok, bool zero_first) {
  __shared__ T s_warp[Tuning::kWarps];
  const T ident = Op::template identity<T>();
  T x[Tuning::kVectors][Tuning::kVec];
  scan_load_tile<Tuning>(x, d_in, blockIdx.x, n, vector_ok, ident, probe);  // step: load
  probe.warp_barrier();
  if (zero_first) clear_tile_state_then_sync_grid(state, blockIdx.x);
  scan_tile<Tuning, kExclusive>(x, d_out, blockIdx.x, gridDim.x, n, init, op, state, vector_ok,
                                s_warp, probe);
}
// listing: end

// Small n on Hopper: one cluster of gridDim.x <= 8 tiles, one launch. The tile states live in the
// blocks' shared memory (ClusterTileState), so there is no workspace to clear first; each block
// zeroes its word while its tile loads. Launched only where launch_features.cuh allows; an image
// for an older architecture has an empty body.
template <class Tuning, class T, class Op, bool kExclusive>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::kMinBlocksPerSm)
scan_cluster_kernel(const T* __restrict__ d_in, T* d_out, std::int64_t n, T init, Op op, bool vector_ok) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ T s_warp[Tuning::kWarps];
  __shared__ std::uint64_t s_state;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  if (threadIdx.x == 0) s_state = 0;
  cluster.barrier_arrive();
  const T ident = Op::template identity<T>();
  T x[Tuning::kVectors][Tuning::kVec];
  NoProbe probe;
  scan_load_tile<Tuning>(x, d_in, blockIdx.x, n, vector_ok, ident, probe);
  cluster.barrier_wait();  // every block's word is zeroed
  scan_tile<Tuning, kExclusive>(x, d_out, blockIdx.x, gridDim.x, n, init, op, ClusterTileState<T>{&s_state},
                                vector_ok, s_warp, probe);
  cluster.sync();  // keep this block's word alive until its successors have read it
#else
  (void)d_in, (void)d_out, (void)n, (void)init, (void)op, (void)vector_ok;
#endif
}

}  // namespace primlab::detail
