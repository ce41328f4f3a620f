// Tuning of the bitonic sorts.
#pragma once

namespace primlab::detail {

struct BitonicSortTuning {
  // Elements per thread held in registers for the strides below 16 (4 of every stage's steps
  // need no shared memory). v1 had 8: 2^18 segments of 1024 u32 took 3.94 ms (5.14 x CUB),
  // bound by shared-memory steps (28 per segment); 16 leaves 21.
  static constexpr int kItems = 16;
  // Shared-memory tile of the one-array sort: 8192 elements (512 threads). v1's 4096-element
  // tile and 3-stride global passes took 24 launches and 146 us for 2^20 u32 (0.65 x merge
  // sort); 8192 and 4 strides per pass make it 18 launches. 128 KB for u64 pairs.
  static constexpr int kTile = 8192;
  static constexpr int kMaxThreads = 512;  // = kTile / kItems
  // Global passes: 256 threads, each fusing 4 strides (16 elements).
  static constexpr int kGlobalThreads = 256;
  static constexpr int kGlobalFuse = 4;
  // Batched segments: a block holds at least 1024 elements (several short segments).
  static constexpr int kSegmentMinTile = 1024;
};

}  // namespace primlab::detail
