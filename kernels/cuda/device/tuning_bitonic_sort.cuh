// Tuning of the bitonic sorts.
#pragma once

namespace primlab::detail {

struct BitonicSortTuning {
  // Elements per thread held in registers for the strides below 8 (3 of every stage's steps
  // need no shared memory). First guess; 16 doubles the registers of the pairs kernels.
  static constexpr int kItems = 8;
  // Shared-memory tile of the one-array sort: 4096 elements (512 threads), the stages up to
  // 4096 and every stride below 4096 run in shared memory. 64 KB for u64 pairs. First guess.
  static constexpr int kTile = 4096;
  static constexpr int kMaxThreads = 512;  // = kBitonicMaxSegment / kItems, = kTile / kItems
  // Global passes: 256 threads, each fusing 3 strides (8 elements): 36 global steps at 2^20
  // become 15 passes. First guess.
  static constexpr int kGlobalThreads = 256;
  static constexpr int kGlobalFuse = 3;
  // Batched segments: a block holds at least 1024 elements (several short segments).
  static constexpr int kSegmentMinTile = 1024;
};

}  // namespace primlab::detail
