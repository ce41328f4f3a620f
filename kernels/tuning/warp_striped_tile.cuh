// The tile of the single-pass scan and select: kThreads threads x kVectors 16-byte vectors,
// warp-striped (lane l of row k of a warp holds vector k * 32 + l of its warp's slice), so that
// every load and store is a coalesced 512-byte warp access.
#pragma once

namespace primlab::detail {

template <class T, int THREADS, int VECTORS>
struct WarpStripedTile {
  static constexpr int kThreads = THREADS;
  static constexpr int kVectors = VECTORS;
  static constexpr int kVec = 16 / int(sizeof(T));
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * kVectors * kVec;
  static constexpr int kTileItems = kWarps * kWarpItems;
};

}  // namespace primlab::detail
