// Tuning of single-pass compaction (one struct, fed to __launch_bounds__). Same warp-striped
// 16-byte layout as the scan; the kept items of a tile are gathered in shared memory and
// written out contiguously by the whole block.
// Measurements: H200, CUDA 13.0, u32 select_if x < 2^31 (keeps 50 %) of 2^28 random keys,
// bench/tune/tune_reduce_scan (median of 15); CUB DeviceSelect::If 0.592 ms. See bench/NOTES-reduce-scan.md.
#pragma once

namespace primlab::detail {

template <class T>
struct SelectTuning {
  // 384 x 24 (tile 9216, 36 KB of shared memory for the gather): 0.525 ms with the delays
  // below; 256 x 24: 0.534; 128 x 32: 0.537; 256 x 16: 0.550 (first draft, no delays: 0.67).
  static constexpr int kThreads = 384;
  static constexpr int kVectors = 6;
  static constexpr int kMinBlocksPerSm = 1;
  static constexpr bool kStreamingLoads = true;
  static constexpr bool kStreamingStores = true;
  static constexpr int kLookbackWords = 1;
  static constexpr int kLookbackSleepNs = 100;
  // 8-byte strides, 384 x 24 with 1200 / 2000 / 3000 / 4000 ns: 0.525 / 0.525 / 0.575 / 0.572
  // ms; 128-byte strides with 0 / 700 / 1500 ns: 0.483 / 0.475 / 0.479 ms.
  static constexpr int kLookbackInitialDelayNs = 700;
  // Bytes between neighbouring tiles' count words (see tuning_scan.cuh): 384 x 24, delay
  // 1500 ns: 8 B 0.526, 32 B 0.486, 128 B 0.479 ms.
  static constexpr int kStatusStrideBytes = 128;
  static constexpr int kVec = 16 / int(sizeof(T));
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * kVectors * kVec;
  static constexpr int kTileItems = kWarps * kWarpItems;
};

}  // namespace primlab::detail
