// Tuning of the single-pass decoupled look-back scan (one struct, fed to __launch_bounds__).
// Each thread holds kVectors 16-byte vectors, laid out warp-striped (lane l of row k loads
// vector k * 32 + l of its warp's slice) so that every load and store is a coalesced 512 B
// warp access; a tile is kThreads * kVectors * (16 / sizeof(T)) elements.
#pragma once

namespace primlab::detail {

template <class T>
struct ScanTuning {
  // Threads per block. Starting point from CUB's SM90 policy (128 x 24 for 4-byte types);
  // 256 threads halve the look-back chain length per element. H200 measurement: see
  // bench/NOTES-part1.md (u32 exclusive sum, 2^28).
  static constexpr int kThreads = 256;
  // 16-byte vectors per thread: 4 (16 x 4-byte items, tile 4096) and 6 (12 x 8-byte items,
  // tile 3072): enough bytes in flight per SM (2 blocks x 16 KB) to cover DRAM latency.
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
