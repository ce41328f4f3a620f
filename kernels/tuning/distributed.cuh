// Tuning of the multi-GPU primitives' local kernels (the splitter histograms and the partition by
// destination). Not swept yet: the usual streaming shapes, 256 threads with 16 keys each; the
// phase times they give on the H200 are in bench/NOTES-distributed.md.
#pragma once

namespace primlab::detail {

struct DistributedTuning {
  static constexpr int kThreads = 256;
  static constexpr int kItems = 16;                  // keys per thread of one partition tile
  static constexpr int kTile = kThreads * kItems;    // 4096 keys: one block's tile
  static constexpr int kHistogramBlocksPerSm = 4;    // splitter histograms: grid-stride blocks
  static constexpr int kMaxQueries = 16;             // buckets one histogram launch refines
};

}  // namespace primlab::detail
