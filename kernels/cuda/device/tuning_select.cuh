// Tuning of single-pass compaction (one struct, fed to __launch_bounds__). Same warp-striped
// 16-byte layout as the scan; the kept items of a tile are gathered in shared memory and
// written out contiguously by the whole block.
#pragma once

namespace primlab::detail {

template <class T>
struct SelectTuning {
  // Starting point: the scan's shape (256 threads x 16 items of 4 bytes, 16 KB of shared
  // memory for the gather). H200 figures in bench/NOTES-part1.md.
  static constexpr int kThreads = 256;
  static constexpr int kVectors = sizeof(T) <= 4 ? 4 : 6;
  static constexpr int kMinBlocksPerSm = 2;
  // Streaming (evict-first) hints on the 16-byte loads and on the stores.
  static constexpr bool kStreamingLoads = true;
  static constexpr bool kStreamingStores = true;
  static constexpr int kVec = 16 / int(sizeof(T));
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * kVectors * kVec;
  static constexpr int kTileItems = kWarps * kWarpItems;
};

}  // namespace primlab::detail
