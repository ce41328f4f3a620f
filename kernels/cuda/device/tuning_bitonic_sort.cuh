// Tuning of the bitonic sorts.
#pragma once

namespace primlab::detail {

struct BitonicSortTuning {
  // Elements per thread held in registers for the strides below kItems (3 of every stage's
  // steps need no shared memory). v2 tried 16 (with an 8192 tile): 2^18 segments of 1024 u32
  // went from 3.94 ms (5.14 x CUB) to 4.23 ms (4.77 x), and one 2^16 array from 52 to 75 us
  // (one 512-thread block per SM sorting its tile is latency-bound); 2^20 stayed at 147 us.
  static constexpr int kItems = 8;
  static constexpr int kSegmentItems = 8;
  // Shared-memory tile of the one-array sort: 4096 elements (512 threads), 64 KB for u64 pairs.
  static constexpr int kTile = 4096;
  static constexpr int kMaxThreads = 512;  // = kTile / kItems = kBitonicMaxSegment / kSegmentItems
  // Global passes: 256 threads, each fusing 4 strides (16 elements): 2^20 takes 12 global
  // passes instead of v1's 15 with 3 strides.
  static constexpr int kGlobalThreads = 256;
  static constexpr int kGlobalFuse = 4;
  // Batched segments: a block holds at least 1024 elements (several short segments).
  static constexpr int kSegmentMinTile = 1024;
};

}  // namespace primlab::detail
