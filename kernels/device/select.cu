// Single-pass stream compaction: flags from a predicate or a flag array, their counts scanned
// with decoupled look-back, kept items gathered in shared memory, then a contiguous write.
#include <cstdint>

#include "block/tile_state.cuh"
#include "util/cuda_check.cuh"
#include "util/launch_features.cuh"
#include "agent/select_kernel.cuh"
#include "tuning/select.cuh"
#include "warp/warp_scan.cuh"
#include "primlab/select.h"

namespace primlab {
namespace detail {

// [SECTION] Dispatch
template <class T>
std::int64_t select_tiles(std::int64_t n) {
  constexpr std::int64_t tile = SelectTuning<T>::kTileItems;
  return (n + tile - 1) / tile;
}

template <class T>
using SelectState = CountTileStateT<SelectTuning<T>::kStatusStrideBytes / 8>;

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
  const std::size_t need = state_bytes<SelectState<T>>(tiles);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  if (reinterpret_cast<std::uintptr_t>(ws.ptr) % 16) return Status::InvalidArgument;
  const bool vector_ok = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0;
  SelectState<T> state{static_cast<std::uint64_t*>(ws.ptr)};
  return launch_with_cleared_tile_states(select_kernel<Tuning, T, Pred, SelectState<T>>, tiles, Tuning::kThreads,
                                         ws.ptr, std::size_t(tiles) * SelectState<T>::bytes_per_tile(), stream, d_in,
                                         d_flags, d_out, d_num_selected, n, pred, state, vector_ok);
}

}  // namespace detail

template <class T>
std::size_t select_workspace_bytes(std::int64_t n) {
  if (n <= 0) return 0;
  return detail::state_bytes<detail::SelectState<T>>(detail::select_tiles<T>(n));
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
