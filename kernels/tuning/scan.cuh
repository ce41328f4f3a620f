// Tuning of the single-pass decoupled look-back scan (one struct, fed to __launch_bounds__).
// Each thread holds kVectors 16-byte vectors, laid out warp-striped (lane l of row k loads
// vector k * 32 + l of its warp's slice) so that every load and store is a coalesced 512 B
// warp access; a tile is kThreads * kVectors * (16 / sizeof(T)) elements.
// Measurements: H200, CUDA 13.0, u32 exclusive sum of 2^28 random keys, bench/tune/tune_reduce_scan
// (median of 15; run-to-run spread about 2 %); memcpy d2d 0.508 ms = 4226 GB/s; CUB 0.682 ms.
// Details and the history in bench/NOTES-reduce-scan.md.
#pragma once

namespace primlab::detail {

template <class T>
struct ScanTuning {
  // 384 x 24 (tile 9216): 0.613 ms with the delays below; 256 x 16: 0.657; 256 x 32: 0.641;
  // 128 x 32: 0.650; 512 x 24: 0.666 (same delays). Without the look-back (a broken variant
  // that skipped it) 256 x 16 ran 0.529 ms: the look-back costs the rest.
  static constexpr int kThreads = 384;
  static constexpr int kVectors = 6;
  static constexpr int kMinBlocksPerSm = 1;
  // Streaming hints: 256 x 16 ldcs+stcs 0.764 ms, plain 0.829, ldcs only 0.821.
  static constexpr bool kStreamingLoads = true;
  static constexpr bool kStreamingStores = true;
  // Look-back window: 32 lanes x kLookbackWords tiles per round trip. 2 or 4 words were slower
  // (256 x 16: 1 word 0.776, 2 words 0.825, 4 words 0.938 ms).
  static constexpr int kLookbackWords = 1;
  // Back-off between polls of an incomplete window: 0-1000 ns made no difference (+-1 %).
  static constexpr int kLookbackSleepNs = 100;
  // Delay between publishing the tile's aggregate and the first poll (grids >= 512 tiles).
  // With 8-byte status strides: 384 x 24 with 0 / 300 / 700 / 1200 / 2000 / 3000 / 4000 ns:
  // 0.730 / 0.696 / 0.676 / 0.628-0.643 / 0.641 / 0.613 / 0.617 ms. With 128-byte strides:
  // 0 / 1200 / 3000 ns: 0.584 / 0.579 / 0.619 ms.
  static constexpr int kLookbackInitialDelayNs = 1200;
  // Bytes between neighbouring tiles' status words: spreading them over L2 lines takes the
  // pollers of one window off a single hot line. 384 x 24, delay 1200 ns: 8 B (packed) 0.628,
  // 32 B 0.583, 128 B 0.579, 256 B 0.593 ms. (29128 tiles x 128 B = 3.7 MB of workspace.)
  static constexpr int kStatusStrideBytes = 128;
  static constexpr int kVec = 16 / int(sizeof(T));
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * kVectors * kVec;
  static constexpr int kTileItems = kWarps * kWarpItems;
};

}  // namespace primlab::detail
