// Tuning of the bitonic sorts. Figures: H200, u32 keys, ours / CUB merge sort (or segmented
// sort), bench and a scratch driver; the history in bench/NOTES-sort.md (bitonic sections).
#pragma once

namespace primlab::detail {

struct BitonicSortTuning {
  // One array: tiles of 16 elements per thread in registers, blocked and striped layouts,
  // shared memory only between the two; 2^20 in 98.8 us vs 143.5 with shared-memory steps.
  // log2 of the threads per tile: 512 where 4-byte keys alone stay under 128 registers (86),
  // else 256 (up to 182 registers for 8-byte pairs). 2^20: 512 threads 89.2 us vs 256 93.3.
  static constexpr int array_log_threads(int key_bytes, int value_bytes) {
    return key_bytes + value_bytes <= 4 ? 9 : 8;
  }
  // Global passes: 256 threads fusing 4 strides (16 elements): 2^20 in 12 passes vs 15 fusing 3.
  static constexpr int kGlobalThreads = 256;
  static constexpr int kGlobalFuse = 4;
  // Batched segments: 8 per thread, at most 512 threads: 2^18 x 1024 in 3.94 ms vs 4.23 with 16.
  static constexpr int kSegmentItems = 8;
  static constexpr int kSegmentMaxThreads = 512;
  // A block holds at least 1024 elements (several short segments): not swept.
  static constexpr int kSegmentMinTile = 1024;
};

}  // namespace primlab::detail
