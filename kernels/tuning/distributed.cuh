// Tuning of the multi-GPU primitives' local kernels (the splitter histograms, the partition by
// destination, the merge of the kept and the received keys). Not swept yet: the usual streaming
// shapes, 256 threads with 16 keys each (8 outputs each for the merge); the phase times they give
// are in bench/NOTES-distributed.md.
#pragma once

namespace primlab::detail {

struct DistributedTuning {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 16;                  // keys per thread of one partition tile
  static constexpr int kTile = kThreads * kItems;    // 4096 keys: one block's tile
  static constexpr int kHistogramBlocksPerSm = 4;    // splitter histograms: grid-stride blocks
  static constexpr int kMaxQueries = 16;             // buckets one histogram launch refines
  // Merge: outputs per thread, 16 where a key and its value take 8 bytes or less, else 8 (shared
  // memory stays under 48 KB). 2^28 u32 keys in two sorted runs, H100: 16 items 1.53 ms, 8 items
  // 1.98, 4 items 2.58 (primlab_tune_merge, before the keys were encoded once in shared memory).
  static constexpr int merge_items(int key_bytes, int value_bytes) { return key_bytes + value_bytes <= 8 ? 16 : 8; }
  static constexpr int kMinMergeTile = kThreads * 8;  // the smallest merge tile
};

}  // namespace primlab::detail
