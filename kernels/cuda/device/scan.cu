// Single-pass prefix scan with decoupled look-back (Merrill & Garland 2016): reads n, writes n.
#include <cstdint>

#include "cuda/block/tile_state.cuh"
#include "cuda/cuda_check.cuh"
#include "cuda/device/tuning_scan.cuh"
#include "cuda/warp/warp_scan.cuh"
#include "primlab/scan.h"

namespace primlab {
namespace detail {

// [SECTION] Kernel
template <class Tuning, class T, class Op, bool kExclusive>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::kMinBlocksPerSm)
scan_kernel(const T* __restrict__ d_in, T* d_out, std::int64_t n, T init, Op op,
            TileState<T> state, bool vector_ok) {
  constexpr int kVec = Tuning::kVec;
  constexpr int kK = Tuning::kVectors;
  constexpr int kWarps = Tuning::kWarps;
  union Vec {
    uint4 u;
    T t[kVec];
  };
  __shared__ T s_warp[kWarps];

  const std::int64_t tile = blockIdx.x;
  const std::int64_t tile_base = tile * Tuning::kTileItems;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t wbase = tile_base + std::int64_t(warp) * Tuning::kWarpItems;
  const bool full = tile_base + Tuning::kTileItems <= n;
  const T ident = Op::template identity<T>();

  T x[kK][kVec];
  if (full && vector_ok) {
#pragma unroll
    for (int k = 0; k < kK; ++k) {
      Vec v;
      v.u = __ldcs(reinterpret_cast<const uint4*>(d_in + wbase + (k * 32 + lane) * kVec));
#pragma unroll
      for (int j = 0; j < kVec; ++j) x[k][j] = v.t[j];
    }
  } else {
#pragma unroll
    for (int k = 0; k < kK; ++k)
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const std::int64_t i = wbase + (k * 32 + lane) * kVec + j;
        x[k][j] = i < n ? d_in[i] : ident;
      }
  }

  // Row k of a warp = 32 consecutive vectors. Scan each vector in registers, the vector totals
  // across the warp, and carry the row totals down the rows.
  T row_prefix[kK];
  T carry = ident;
#pragma unroll
  for (int k = 0; k < kK; ++k) {
#pragma unroll
    for (int j = 1; j < kVec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);
    const T inc = warp_inclusive_scan(x[k][kVec - 1], op);
    T exc = __shfl_up_sync(kFullMask, inc, 1);
    if (lane == 0) exc = ident;
    row_prefix[k] = k == 0 ? exc : op(carry, exc);
    const T row_total = __shfl_sync(kFullMask, inc, 31);
    carry = k == 0 ? row_total : op(carry, row_total);
  }
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const T w = lane < kWarps ? s_warp[lane] : ident;
    const T winc = warp_inclusive_scan(w, op);
    const T tile_total = __shfl_sync(kFullMask, winc, kWarps - 1);
    T wexc = __shfl_up_sync(kFullMask, winc, 1);
    T tile_prefix;
    bool has_prefix;
    if (tile == 0) {
      tile_prefix = kExclusive ? init : ident;
      has_prefix = kExclusive;
      if (lane == 0 && gridDim.x > 1)
        state.publish(0, kTileInclusive, has_prefix ? op(tile_prefix, tile_total) : tile_total);
    } else {
      if (lane == 0) state.publish(tile, kTileAggregate, tile_total);
      tile_prefix = look_back<T>(state, tile, op);
      has_prefix = true;
      if (lane == 0) state.publish(tile, kTileInclusive, op(tile_prefix, tile_total));
    }
    __syncwarp();
    if (lane < kWarps) {
      T p;
      if (lane == 0) p = tile_prefix;
      else p = has_prefix ? op(tile_prefix, wexc) : wexc;
      s_warp[lane] = p;  // a warp's exclusive prefix in the whole array
    }
  }
  __syncthreads();
  const T wprefix = s_warp[warp];
  // Warp 0 of tile 0 of an inclusive scan has no prefix: identity keeps the code uniform.

#pragma unroll
  for (int k = 0; k < kK; ++k) {
    const T run = op(wprefix, row_prefix[k]);
    T y[kVec];
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      if (kExclusive) y[j] = j == 0 ? run : op(run, x[k][j - 1]);
      else y[j] = op(run, x[k][j]);
    }
    if (full && vector_ok) {
      Vec v;
#pragma unroll
      for (int j = 0; j < kVec; ++j) v.t[j] = y[j];
      __stcs(reinterpret_cast<uint4*>(d_out + wbase + (k * 32 + lane) * kVec), v.u);
    } else {
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        const std::int64_t i = wbase + (k * 32 + lane) * kVec + j;
        if (i < n) d_out[i] = y[j];
      }
    }
  }
}

// [SECTION] Dispatch
template <class T>
std::int64_t scan_tiles(std::int64_t n) {
  constexpr std::int64_t tile = ScanTuning<T>::kTileItems;
  return (n + tile - 1) / tile;
}

template <class T, class Op, bool kExclusive>
Status scan_dispatch(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws,
                     cudaStream_t stream) {
  using Tuning = ScanTuning<T>;
  if (n < 0) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  const std::int64_t tiles = scan_tiles<T>(n);
  if (tiles > 0x7fffffff) return Status::Unsupported;
  const std::size_t need = tile_state_bytes<T>(tiles);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  if (reinterpret_cast<std::uintptr_t>(ws.ptr) % 16) return Status::InvalidArgument;
  if (tiles > 1)
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(ws.ptr, 0, tile_state_clear_bytes<T>(tiles), stream));
  const bool vector_ok = (reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0) &&
                         (reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0);
  scan_kernel<Tuning, T, Op, kExclusive><<<unsigned(tiles), Tuning::kThreads, 0, stream>>>(
      d_in, d_out, n, init, op, make_tile_state<T>(ws.ptr, tiles), vector_ok);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

}  // namespace detail

// [SECTION] Public entry points
template <class T>
std::size_t scan_workspace_bytes(std::int64_t n) {
  if (n <= 0) return 0;
  return detail::tile_state_bytes<T>(detail::scan_tiles<T>(n));
}

template <class T, class Op>
Status inclusive_scan(const T* d_in, T* d_out, std::int64_t n, Op op, Workspace ws,
                      cudaStream_t stream) {
  return detail::scan_dispatch<T, Op, false>(d_in, d_out, n, Op::template identity<T>(), op, ws,
                                             stream);
}

template <class T, class Op>
Status exclusive_scan(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws,
                      cudaStream_t stream) {
  return detail::scan_dispatch<T, Op, true>(d_in, d_out, n, init, op, ws, stream);
}

#define PRIMLAB_SCAN_INSTANTIATE(T, OP)                                                        \
  template Status inclusive_scan<T, OP>(const T*, T*, std::int64_t, OP, Workspace,            \
                                        cudaStream_t);                                         \
  template Status exclusive_scan<T, OP>(const T*, T*, std::int64_t, T, OP, Workspace,         \
                                        cudaStream_t);
#define PRIMLAB_SCAN_INSTANTIATE_TYPE(T)                  \
  template std::size_t scan_workspace_bytes<T>(std::int64_t); \
  PRIMLAB_SCAN_INSTANTIATE(T, Sum)                        \
  PRIMLAB_SCAN_INSTANTIATE(T, Min)                        \
  PRIMLAB_SCAN_INSTANTIATE(T, Max)

PRIMLAB_SCAN_INSTANTIATE_TYPE(std::int32_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(std::uint32_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(float)
PRIMLAB_SCAN_INSTANTIATE_TYPE(std::int64_t)
PRIMLAB_SCAN_INSTANTIATE_TYPE(double)

}  // namespace primlab
