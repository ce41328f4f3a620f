// Tuning of the multi-GPU primitives' local kernels (the splitter histograms, the partition by
// destination, the merge of sorted runs). The histograms and the partition are not swept: the
// usual streaming shapes, 256 threads with 16 keys each; the merge's items are swept by
// primlab_tune_merge. The phase times they give are in bench/NOTES-distributed.md.
#pragma once

namespace primlab::detail {

struct DistributedTuning {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 16;                  // keys per thread of one partition tile
  static constexpr int kTile = kThreads * kItems;    // 4096 keys: one block's tile
  static constexpr int kHistogramBlocksPerSm = 4;    // splitter histograms: grid-stride blocks
  static constexpr int kMaxQueries = 16;             // buckets one histogram launch refines
  // Merge: outputs per thread, 16 for 4-byte keys alone, else 8 (2^28 keys in two sorted runs,
  // H100, primlab_tune_merge: u32 keys 0.99 ms with 16 items against 1.31 with 8, 72 % of a copy
  // of the same bytes; u32 pairs 1.67 ms with 8 items against 1.99 with 16, 86 %).
  static constexpr int merge_items(int key_bytes, int value_bytes) { return key_bytes + value_bytes <= 4 ? 16 : 8; }
  static constexpr int kMinMergeTile = kThreads * 8;  // the smallest merge tile
};

}  // namespace primlab::detail
