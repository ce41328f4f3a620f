// Tuning of the multi-GPU primitives: which scheme a sort runs and how deep its pipeline is, per
// rank count and size (the table below, from bench-multigpu), and the local kernels' shapes (the
// splitter histograms, the partition by destination, the merge of sorted runs). The histograms
// and the partition are not swept: the usual streaming shapes, 256 threads with 16 keys each; the
// merge's items are swept by primlab_tune_merge. The phase times they give are in
// bench/NOTES-distributed.md.
#pragma once
#include <cstdint>

#include "primlab/distributed.h"

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

  // A tuned pipeline cuts no chunk below this many keys: a chunk's partition and transfer each
  // cost a launch and a group of tens of microseconds, which a chunk of 2^20 keys (under 0.1 ms
  // of partition on an H100) no longer hides.
  static constexpr std::int64_t kMinChunkKeys = std::int64_t(1) << 20;

  // Which scheme a sort takes, and its pipeline's pieces (DistributedOptions::chunks), for a rank
  // count and keys or pairs, from a number of keys per rank on. Rows of one (ranks, pairs) are in
  // increasing size; a rank count with no row takes the rows of the largest count below it.
  struct Choice {
    int ranks;
    bool pairs;
    int min_log2_keys;  // from 2^min_log2_keys keys per rank on
    DistributedScheme scheme;
    int chunks;
  };
  // Measured: 2 ranks, bench-multigpu on 2 x H100 (8c56105, 2^28 u32 per GPU): sort-first, one
  // transfer, 8.16 ms (1.28x one GPU); partition-first then unpipelined, 10.76 ms. Not yet
  // measured against the pipelined partition-first, nor at 3 and 4 ranks, where these rows keep
  // the choice of the 2-rank measurement; 5 ranks and more: partition-first, as three merge rounds
  // cost more than the partition pass they replace (estimate from the 2-rank phases).
  static constexpr Choice kChoices[] = {
      {1, false, 0, DistributedScheme::PartitionFirst, 1},
      {1, true, 0, DistributedScheme::PartitionFirst, 1},
      {2, false, 0, DistributedScheme::SortFirst, 1},
      {2, true, 0, DistributedScheme::SortFirst, 1},
      {3, false, 0, DistributedScheme::SortFirst, 1},
      {3, true, 0, DistributedScheme::SortFirst, 1},
      {4, false, 0, DistributedScheme::SortFirst, 1},
      {4, true, 0, DistributedScheme::SortFirst, 1},
      {5, false, 0, DistributedScheme::PartitionFirst, 4},
      {5, true, 0, DistributedScheme::PartitionFirst, 4},
  };

  // The pieces of a scheme that runs where its row names the other (a forced scheme, or a
  // partition, which always partitions first): estimates, not measured.
  static constexpr int default_chunks(DistributedScheme scheme) {
    return scheme == DistributedScheme::PartitionFirst ? 4 : 1;
  }

  static constexpr Choice choice(int ranks, bool pairs, std::int64_t keys_per_rank) {
    int best_ranks = 0;
    for (const Choice& c : kChoices)
      if (c.pairs == pairs && c.ranks <= ranks && c.ranks > best_ranks) best_ranks = c.ranks;
    Choice pick{};
    bool found = false;
    for (const Choice& c : kChoices)
      if (c.ranks == best_ranks && c.pairs == pairs && (!found || (std::int64_t(1) << c.min_log2_keys) <= keys_per_rank)) {
        pick = c;
        found = true;
      }
    return pick;
  }
};

}  // namespace primlab::detail
