// Single-pass prefix scan with decoupled look-back (Merrill & Garland 2016): reads n, writes n.
// Scans of at most one cluster of tiles run as one cluster on Hopper, with no workspace to clear;
// scans of at most one resident wave of tiles clear it in a cooperative launch.
#include <cstdint>

#include "block/tile_state.cuh"
#include "util/cuda_check.cuh"
#include "util/launch_features.cuh"
#include "agent/scan_kernel.cuh"
#include "tuning/scan.cuh"
#include "warp/warp_scan.cuh"
#include "primlab/scan.h"

namespace primlab {
namespace detail {

// [SECTION] Dispatch
template <class T>
std::int64_t scan_tiles(std::int64_t n) {
  constexpr std::int64_t tile = ScanTuning<T>::kTileItems;
  return (n + tile - 1) / tile;
}

template <class T>
using ScanState = StridedTileState<T, ScanTuning<T>::kStatusStrideBytes>;

template <class T, class Op, bool kExclusive>
Status scan_dispatch(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws,
                     cudaStream_t stream) {
  using Tuning = ScanTuning<T>;
  if (n < 0) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  const std::int64_t tiles = scan_tiles<T>(n);
  if (tiles > 0x7fffffff) return Status::Unsupported;
  using State = ScanState<T>;
  const std::size_t need = state_bytes<State>(tiles);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  if (reinterpret_cast<std::uintptr_t>(ws.ptr) % 16) return Status::InvalidArgument;
  const bool vector_ok = (reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0) &&
                         (reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0);
  if constexpr (sizeof(T) <= 4) {
    if (tiles > 1 && tiles <= Tuning::kClusterMaxTiles) {
      auto kernel = scan_cluster_kernel<Tuning, T, Op, kExclusive>;
      bool cluster = false;
      PRIMLAB_TRY(has_sm90_launch_features(kernel, cluster));
      if (cluster) {
        const cudaLaunchAttribute attr = cluster_attribute(unsigned(tiles));
        return launch_with_attribute(&attr, kernel, unsigned(tiles), Tuning::kThreads, 0, stream, d_in, d_out, n,
                                     init, op, vector_ok);
      }
    }
  }
  State state;
  state.words = static_cast<decltype(state.words)>(ws.ptr);
  // Up to one resident wave of tiles, the kernel clears its tile states itself
  // (bench/NOTES-reduce-scan.md).
  return launch_with_cleared_tile_states(scan_kernel<Tuning, T, Op, kExclusive, State>, tiles, Tuning::kThreads,
                                         ws.ptr, std::size_t(tiles) * State::bytes_per_tile(), stream, d_in, d_out, n,
                                         init, op, state, vector_ok);
}

}  // namespace detail

// [SECTION] Public entry points
template <class T>
std::size_t scan_workspace_bytes(std::int64_t n) {
  if (n <= 0) return 0;
  return detail::state_bytes<detail::ScanState<T>>(detail::scan_tiles<T>(n));
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
