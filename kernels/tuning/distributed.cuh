// Tuning of the multi-GPU primitives: which scheme a sort runs and how many pieces its pipeline
// has, per rank count and size (the table below, from bench-multigpu), and the local kernels'
// shapes (the splitter histograms, the partition by destination, the merge of sorted runs). The
// histograms and the partition are not swept: the usual streaming shapes, 256 threads with 16
// keys each; the merge's items are swept by primlab_tune_merge. The phase times they give are in
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

  // A tuned pipeline cuts no piece below this many keys per rank: a piece's transfer, sort or
  // merge each cost a launch and a group of tens of microseconds, which a piece of 2^20 keys
  // (about 20 us of sort on an H200) no longer hides.
  static constexpr std::int64_t kMinPieceKeys = std::int64_t(1) << 20;

  // Which scheme a sort takes, and its pipeline's pieces (DistributedOptions::pieces), for a rank
  // count and keys or pairs, from a number of keys per rank on. Rows of one (ranks, pairs) are in
  // increasing size; a rank count with no row takes the rows of the largest count below it.
  struct Choice {
    int ranks;
    bool pairs;
    int min_log2_keys;  // from 2^min_log2_keys keys per rank on
    DistributedScheme scheme;
    int pieces;
  };
  // The schemes: the fastest way on uniform u32 keys of the first 4 x H200 run (NCCL 2.28.3,
  // commit f0a1a4d, bench/NOTES-distributed.md), ms of the whole sort. That run's pipeline cut
  // the shard by position (partition-first) or sent peer by peer (sort-first); the pieces by key
  // that replaced both are 4 here, a prediction (the cost model) until a run measures them.
  //   2 ranks keys  2^26 sort-first 2.36 (partition-first 2.57), 2^28 7.99 (8.83), 2^30 30.68 (33.60)
  //   2 ranks pairs 2^26 sort-first 3.46 (3.81), 2^28 12.35 (13.76), 2^30 47.61 (52.32)
  //   4 ranks keys  2^26 partition-first 2.80 (sort-first 2.97), 2^28 9.30 (10.16), 2^30 sort-first 35.87 (38.19)
  //   4 ranks pairs 2^26 partition-first 4.21 (4.45), 2^28 14.54 (16.09), 2^30 sort-first 57.55 (61.57)
  // 3 ranks take the 2-rank rows (not measured); 5 ranks and more partition first, as sort-first
  // merges at most 4 runs.
  static constexpr Choice kChoices[] = {
      {1, false, 0, DistributedScheme::PartitionFirst, 1},
      {1, true, 0, DistributedScheme::PartitionFirst, 1},
      {2, false, 0, DistributedScheme::SortFirst, 4},
      {2, true, 0, DistributedScheme::SortFirst, 4},
      {4, false, 0, DistributedScheme::PartitionFirst, 4},
      {4, false, 30, DistributedScheme::SortFirst, 4},
      {4, true, 0, DistributedScheme::PartitionFirst, 4},
      {4, true, 30, DistributedScheme::SortFirst, 4},
      {5, false, 0, DistributedScheme::PartitionFirst, 4},
      {5, true, 0, DistributedScheme::PartitionFirst, 4},
  };

  // The pieces of a scheme that runs where its row names the other (a forced scheme, or a
  // partition, which always partitions first): the rows' count.
  static constexpr int kDefaultPieces = 4;

  // How much each piece grows over the one before it. Piece k + 1 travels while piece k is sorted
  // or merged, so it may be as much larger as that work is slower than the transfer per key; the
  // first piece's transfer is the one nothing hides. Partition-first keys: the local sort took 1.44x
  // the exchange (4 x H200, 2^28 keys per GPU, f0a1a4d: 5.10 against 3.54 ms), pairs 1.04x (7.39
  // against 7.12): 1.5 and 1. Sort-first: a merge round is faster than the transfer (1.98 ms for two
  // rounds against 3.12), so its pieces are equal.
  static constexpr double piece_growth(DistributedScheme scheme, bool pairs) {
    return scheme == DistributedScheme::PartitionFirst && !pairs ? 1.5 : 1.0;
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
