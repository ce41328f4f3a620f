// Single-pass stream compaction: flags from a predicate or a flag array, their counts scanned
// with decoupled look-back, kept items gathered in shared memory, then a contiguous write.
#include <cstdint>

#include "cuda/block/tile_state.cuh"
#include "cuda/cuda_check.cuh"
#include "cuda/device/tuning_select.cuh"
#include "cuda/warp/warp_scan.cuh"
#include "primlab/select.h"

namespace primlab {
namespace detail {

struct FlagSelector {};  // tag: select by d_flags

template <class T, class Pred>
__device__ __forceinline__ bool selected(const T& x, const std::uint8_t* flags, std::int64_t i,
                                         Pred pred) {
  if constexpr (std::is_same_v<Pred, FlagSelector>) return flags[i] != 0;
  else return pred(x);
}

// [SECTION] Kernel
template <class Tuning, class T, class Pred>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::kMinBlocksPerSm)
select_kernel(const T* __restrict__ d_in, const std::uint8_t* __restrict__ d_flags,
              T* __restrict__ d_out, std::int64_t* d_num_selected, std::int64_t n, Pred pred,
              CountTileState state, bool vector_ok) {
  constexpr int kVec = Tuning::kVec;
  constexpr int kK = Tuning::kVectors;
  constexpr int kWarps = Tuning::kWarps;
  union Vec {
    uint4 u;
    T t[kVec];
  };
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
      v.u = __ldcs(reinterpret_cast<const uint4*>(d_in + wbase + (k * 32 + lane) * kVec));
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
      tile_prefix = look_back<std::int64_t>(state, tile, Sum{});
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
  for (int i = threadIdx.x; i < count; i += Tuning::kThreads) __stcs(out + i, s_items[i]);
}

// [SECTION] Dispatch
template <class T>
std::int64_t select_tiles(std::int64_t n) {
  constexpr std::int64_t tile = SelectTuning<T>::kTileItems;
  return (n + tile - 1) / tile;
}

template <class T, class Pred>
Status select_dispatch(const T* d_in, const std::uint8_t* d_flags, T* d_out,
                       std::int64_t* d_num_selected, std::int64_t n, Pred pred, Workspace ws,
                       cudaStream_t stream) {
  using Tuning = SelectTuning<T>;
  if (n < 0 || !d_num_selected) return Status::InvalidArgument;
  if (n == 0) {
    PRIMLAB_CUDA_TRY(cudaMemsetAsync(d_num_selected, 0, sizeof(std::int64_t), stream));
    return Status::Success;
  }
  if (!d_in || !d_out) return Status::InvalidArgument;
  if (std::is_same_v<Pred, FlagSelector> && !d_flags) return Status::InvalidArgument;
  const std::int64_t tiles = select_tiles<T>(n);
  if (tiles > 0x7fffffff) return Status::Unsupported;
  const std::size_t need = (std::size_t(tiles) * 8 + 255) & ~std::size_t(255);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  if (reinterpret_cast<std::uintptr_t>(ws.ptr) % 16) return Status::InvalidArgument;
  if (tiles > 1) PRIMLAB_CUDA_TRY(cudaMemsetAsync(ws.ptr, 0, std::size_t(tiles) * 8, stream));
  const bool vector_ok = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0;
  CountTileState state{static_cast<std::uint64_t*>(ws.ptr)};
  select_kernel<Tuning><<<unsigned(tiles), Tuning::kThreads, 0, stream>>>(
      d_in, d_flags, d_out, d_num_selected, n, pred, state, vector_ok);
  PRIMLAB_LAUNCH_TRY();
  return Status::Success;
}

}  // namespace detail

template <class T>
std::size_t select_workspace_bytes(std::int64_t n) {
  if (n <= 0) return 0;
  return (std::size_t(detail::select_tiles<T>(n)) * 8 + 255) & ~std::size_t(255);
}

template <class T, class Pred>
Status select_if(const T* d_in, T* d_out, std::int64_t* d_num_selected, std::int64_t n, Pred pred,
                 Workspace ws, cudaStream_t stream) {
  return detail::select_dispatch(d_in, static_cast<const std::uint8_t*>(nullptr), d_out,
                                 d_num_selected, n, pred, ws, stream);
}

template <class T>
Status select_flagged(const T* d_in, const std::uint8_t* d_flags, T* d_out,
                      std::int64_t* d_num_selected, std::int64_t n, Workspace ws,
                      cudaStream_t stream) {
  return detail::select_dispatch(d_in, d_flags, d_out, d_num_selected, n, detail::FlagSelector{},
                                 ws, stream);
}

#define PRIMLAB_SELECT_INSTANTIATE(T)                                                          \
  template std::size_t select_workspace_bytes<T>(std::int64_t);                                \
  template Status select_if<T, LessThan<T>>(const T*, T*, std::int64_t*, std::int64_t,         \
                                            LessThan<T>, Workspace, cudaStream_t);             \
  template Status select_if<T, GreaterEqual<T>>(const T*, T*, std::int64_t*, std::int64_t,     \
                                                GreaterEqual<T>, Workspace, cudaStream_t);     \
  template Status select_if<T, NotEqual<T>>(const T*, T*, std::int64_t*, std::int64_t,         \
                                            NotEqual<T>, Workspace, cudaStream_t);             \
  template Status select_flagged<T>(const T*, const std::uint8_t*, T*, std::int64_t*,          \
                                    std::int64_t, Workspace, cudaStream_t);

PRIMLAB_SELECT_INSTANTIATE(std::int32_t)
PRIMLAB_SELECT_INSTANTIATE(std::uint32_t)
PRIMLAB_SELECT_INSTANTIATE(float)
PRIMLAB_SELECT_INSTANTIATE(std::int64_t)
PRIMLAB_SELECT_INSTANTIATE(double)

}  // namespace primlab
