// Tuning of the single-pass decoupled look-back scan (one struct, fed to __launch_bounds__).
// Figures: H200, CUDA 13.0, u32 exclusive sum of 2^28 random keys, bench/tune/tune_reduce_scan
// (median of 15, spread about 2 %; CUB 0.682 ms); the sweeps in bench/NOTES-reduce-scan.md.
#pragma once

#include "tuning/warp_striped_tile.cuh"

namespace primlab::detail {

// 384 threads x 24 u32 (6 vectors, tile 9216): 0.613 ms vs 512x24 0.666, 256x32 0.641, 256x16 0.657.
template <class T>
struct ScanTuning : WarpStripedTile<T, 384, 6> {
  static constexpr int kMinBlocksPerSm = 1;  // not swept: every shape above ran with 1
  // Streaming hints: ldcs + stcs 0.764 ms vs plain 0.829, ldcs only 0.821 (256 x 16).
  static constexpr bool kStreamingLoads = true;
  static constexpr bool kStreamingStores = true;
  // Look-back tiles per lane and round trip: 1 word 0.776 ms vs 2 words 0.825, 4 words 0.938.
  static constexpr int kLookbackWords = 1;
  // Back-off between polls of an incomplete window: 0-1000 ns all within 1 %.
  static constexpr int kLookbackSleepNs = 100;
  // Delay before the first poll (grids >= 512 tiles), 128-byte strides: 0.579 ms vs 0 ns 0.584, 3000 ns 0.619.
  static constexpr int kLookbackInitialDelayNs = 1200;
  // Bytes between tiles' status words (one hot L2 line per window otherwise): 128 B 0.579 ms vs 8 B 0.628, 256 B 0.593.
  static constexpr int kStatusStrideBytes = 128;
  // Scans of 2..8 tiles (the portable cluster size) on Hopper: one cluster, tile states in shared
  // memory, no memset before it (agent/scan_kernel.cuh). H100, tune_reduce_scan 14|16|16, u32,
  // alternated with the memset + kernel in one process: 2^16 -3 to -8 % (8.5-9.9 us vs 9.0-10.7),
  // 2^14 -4 to -11 % (11.8-12.4 vs 12.9-13.2). 16-block (non-portable) clusters of 256x16 tiles:
  // within the noise of these, not taken.
  static constexpr int kClusterMaxTiles = 8;
};

}  // namespace primlab::detail
