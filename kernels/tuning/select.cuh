// Tuning of single-pass compaction (one struct, fed to __launch_bounds__): the scan's tile, the
// kept items gathered in shared memory and written out contiguously by the whole block.
// Figures: H200, CUDA 13.0, u32 select_if x < 2^31 (keeps 50 %) of 2^28 random keys,
// bench/tune/tune_reduce_scan (median of 15; CUB 0.592 ms); the sweeps in bench/NOTES-reduce-scan.md.
#pragma once

#include "tuning/warp_striped_tile.cuh"

namespace primlab::detail {

// 384 threads x 24 u32 (6 vectors; 36 KB gather buffer): 0.525 ms vs 256x24 0.534, 128x32 0.537, 256x16 0.550.
template <class T>
struct SelectTuning : WarpStripedTile<T, 384, 6> {
  // Taken from the scan's sweep (tuning/scan.cuh), not swept for select:
  static constexpr int kMinBlocksPerSm = 1;
  static constexpr bool kStreamingLoads = true;
  static constexpr bool kStreamingStores = true;
  static constexpr int kLookbackWords = 1;
  static constexpr int kLookbackSleepNs = 100;
  // Delay before the first poll, 128-byte strides: 700 ns 0.475 ms vs 0 ns 0.483, 1500 ns 0.479.
  static constexpr int kLookbackInitialDelayNs = 700;
  // Bytes between tiles' count words: 128 B 0.479 ms vs 8 B 0.526, 32 B 0.486 (delay 1500 ns).
  static constexpr int kStatusStrideBytes = 128;
};

}  // namespace primlab::detail
