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
  static constexpr int kMergeItems = 8;              // merge: outputs per thread
  static constexpr int kMergeTile = kThreads * kMergeItems;  // 2048 outputs: one block's tile
};

}  // namespace primlab::detail
