// Host side of the single-pass scan: the tile count, the tile states' workspace, and the launch
// (one cluster on Hopper for a few tiles, else scan_kernel after its tile states are cleared).
// Templated on the tuning and the probe: the library runs ScanTuning with NoProbe
// (device/scan.cu); the lab's Step tab runs small tiles with its recording probe (scan-lookback).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "agent/scan_kernel.cuh"
#include "block/tile_state.cuh"
#include "util/cuda_check.cuh"
#include "util/launch_features.cuh"
#include "util/probe.cuh"
#include "primlab/status.h"

namespace primlab::detail {

template <class Tuning>
std::int64_t scan_tiles(std::int64_t n) {
  constexpr std::int64_t tile = Tuning::kTileItems;
  return (n + tile - 1) / tile;
}

template <class Tuning, class T>
using ScanStateOf = StridedTileState<T, Tuning::kStatusStrideBytes>;

// Bytes of tile states a scan of n elements needs (0 for n <= 0).
template <class Tuning, class T>
std::size_t scan_state_bytes(std::int64_t n) {
  return n > 0 ? state_bytes<ScanStateOf<Tuning, T>>(scan_tiles<Tuning>(n)) : 0;
}

// A probed scan runs scan_kernel, whose tile states the probe can see: its tuning has no
// cluster path.
template <class Tuning, class T, class Op, bool kExclusive, class Probe = NoProbe>
Status scan_dispatch(const T* d_in, T* d_out, std::int64_t n, T init, Op op, Workspace ws, cudaStream_t stream,
                     Probe probe = {}) {
  static_assert(std::is_same_v<Probe, NoProbe> || Tuning::kClusterMaxTiles == 0,
                "a probed scan steps scan_kernel, not the cluster kernel");
  if (n < 0) return Status::InvalidArgument;
  if (n == 0) return Status::Success;
  if (!d_in || !d_out) return Status::InvalidArgument;
  // listing: scan-lookback
  const std::int64_t tiles = scan_tiles<Tuning>(n);
  // listing: end
  if (tiles > 0x7fffffff) return Status::Unsupported;
  using State = ScanStateOf<Tuning, T>;
  const std::size_t need = state_bytes<State>(tiles);
  if (ws.bytes < need || !ws.ptr) return Status::WorkspaceTooSmall;
  if (reinterpret_cast<std::uintptr_t>(ws.ptr) % 16) return Status::InvalidArgument;
  const bool vector_ok = (reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0) &&
                         (reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0);
  if constexpr (sizeof(T) <= 4 && Tuning::kClusterMaxTiles > 1) {
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
  // listing: scan-lookback
  State state;
  state.words = static_cast<decltype(state.words)>(ws.ptr);
  // Up to one resident wave of tiles, the kernel clears its tile states itself
  // (bench/NOTES-reduce-scan.md).
  probe.launch(stream);
  return launch_with_cleared_tile_states(scan_kernel<Tuning, T, Op, kExclusive, State, Probe>, tiles,
                                         Tuning::kThreads, ws.ptr, std::size_t(tiles) * State::bytes_per_tile(),
                                         stream, d_in, d_out, n, init, op, probe, state, vector_ok);
  // listing: end
}

}  // namespace primlab::detail
