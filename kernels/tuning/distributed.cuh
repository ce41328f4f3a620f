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
  // The rows: the fastest way on uniform u32 keys (and u32 pairs) of run 2 of issue 26, 4 x NVIDIA
  // H100 80GB HBM3 and GPUs 0-1 of the same machine, NCCL 2.28.3, commit cd199d6
  // (bench/results/nvidia-h100-x{2,4}-2026-11-26-distributed-cd199d6.json), ms of the whole sort,
  // each row's comment with the runners-up of the same run. Beside them run 1, 4 x NVIDIA H200,
  // commit f0a1a4d (nvidia-h200-x{2,4}-2026-11-26-distributed-f0a1a4d.json), whose pipelines were
  // older (partition-first cut the shard into chunks by position, "sort-first:3" sent peer by peer,
  // no pieces by key): it agrees on the scheme wherever both runs have it, except pairs at 2^30 on
  // 4 ranks. Times of the two runs are on different GPUs and are not compared; each run's one-GPU
  // sort of the same total is in its JSON.
  //
  // Why each scheme wins where it does (the phases, each timed alone, are in the JSON and in
  // bench/NOTES-distributed.md):
  //  - 2 ranks, sort first, every size: the local sort of the whole shard (5.58 ms at 2^28 keys) is
  //    the only full pass over the keys, and one merge round of two runs (1.03 ms) finishes the
  //    job. Partition-first pays a partition pass with its copies (3.19 ms) and then a sort of what
  //    arrives that is as large as the shard (5.29): 10.63 ms against 8.37.
  //  - 4 ranks below 2^30 keys, partition first: the exchange (3.01 ms at 2^28 keys) hides behind
  //    the local sort of the pieces (5.64 ms), so the total (9.58) is about splitters + partition +
  //    the first piece's transfer + the sort. Sort-first sorts before anything can travel, and its
  //    transfers (2.83 ms) can only hide behind the merges (2.48, two rounds for 4 runs), which are
  //    shorter: 9.88 ms.
  //  - 4 ranks from 2^30 keys, sort first: partition-first's partition with the copies that align
  //    the runs grows faster than the keys (2.92 ms at 2^28, 12.86 at 2^30), the merges do not
  //    (2.48 -> 8.59), and sort-first's smaller compute outweighs its exposed transfers.
  //  - Pieces: 4 hide the exchange where there is work beside it to hide behind; 8 pay a transfer
  //    (partition-first: two, bodies then heads) and a sort launch per piece that small pieces do
  //    not repay (2^26 keys on 4 ranks: 3.46 ms against 2.93 with 4). NCCL's rate depends on the
  //    group's size, and not monotonically: on 4 ranks a group of about 0.8 GB per GPU ran at
  //    215-230 GB/s, 0.2 GB at 250-285, 3.2 GB at 335-350 (sort-first:4 at 2^30 keys: 14.04 ms of
  //    transfers in four groups of 0.8 GB against 9.29 in one), which is why 4 pieces gain
  //    nothing there.
  //  - Skewed and all-equal keys favour sort-first at every size (4 ranks, 2^28 keys: skewed
  //    sort-first:4 9.85 ms against partition-first:4 14.13, all-equal 5.83 against 11.42): its
  //    refinement rounds are binary searches in the sorted shard and it has no class scatter. The
  //    rows are chosen on uniform keys, before the call knows its keys; so on 4 ranks below 2^30 a
  //    skewed input runs partition-first at 0.68 of the uniform rate (the fastest way would give
  //    0.97). Choosing the scheme after the first splitter round would catch that; not done yet.
  //
  //   ranks kind   2^26 keys/rank                2^28                           2^30
  //   2     keys   sort-first:4 2.50             sort-first:1 8.37 (:4 8.40)    sort-first:4 29.53 (:1 31.29)
  //                  (:1 2.52; pf:4 2.90)          (pf:4 9.78)                    (pf:4 38.41)
  //                  H200: sort-first:1 2.36       H200: sort-first:1 7.99        H200: sort-first:1 30.68
  //   2     pairs  sort-first:1 4.08 (:4 4.13)   sort-first:1 14.15 (:4 14.78)  sort-first:4 52.27 (:1 53.91)
  //                  H200: sort-first:1 3.46       H200: sort-first:1 12.35       H200: sort-first:1 47.61
  //   4     keys   partition-first:4 2.93        partition-first:4 9.58         sort-first:4 38.09
  //                  (pf:1 3.13, sf:4 3.15)        (sf:4 9.88, pf:8 10.02)        (pf:8 38.70, sf:1 38.94)
  //                  H200: partition-first:4 2.80  H200: partition-first:4 9.30   H200: sort-first:3 35.87
  //   4     pairs  partition-first:4 4.82        partition-first:4 16.54        partition-first:8 66.64
  //                  (sf:4 5.08)                   (pf:8 16.58, sf:4 16.91)       (sf:1 67.32, pf:4 67.65,
  //                                                                                sf:4 68.10: within 2 %)
  //                  H200: partition-first:4 4.21  H200: partition-first:8 14.54  H200: sort-first:3 57.55
  //                                                  (pf:4 14.83)                   (pf:8 61.57): differs
  // Where a difference is within 1 % (2 ranks keys at 2^28: 8.37 against 8.40) the rows keep one
  // count for all sizes. The crossovers between the sizes measured are not known; a row starts at
  // the size that measured it. 3 ranks take the 2-rank rows (not measured); 5 ranks and more
  // partition first, as sort-first merges at most 4 runs (not measured past 4 ranks either).
  static constexpr Choice kChoices[] = {
      {1, false, 0, DistributedScheme::PartitionFirst, 1},
      {1, true, 0, DistributedScheme::PartitionFirst, 1},
      {2, false, 0, DistributedScheme::SortFirst, 4},        // H100: 2^26 2.50 ms, 2^28 8.40 (:1 8.37), 2^30 29.53
      {2, true, 0, DistributedScheme::SortFirst, 1},         // H100: 2^26 4.08 ms, 2^28 14.15
      {2, true, 30, DistributedScheme::SortFirst, 4},        // H100: 2^30 52.27 ms (:1 53.91)
      {4, false, 0, DistributedScheme::PartitionFirst, 4},   // H100: 2^26 2.93 ms, 2^28 9.58; H200 2.80, 9.30
      {4, false, 30, DistributedScheme::SortFirst, 4},       // H100: 2^30 38.09 ms; H200 sort-first:3 35.87
      {4, true, 0, DistributedScheme::PartitionFirst, 4},    // H100: 2^26 4.82 ms, 2^28 16.54; H200 4.21, pf:8 14.54
      {4, true, 30, DistributedScheme::PartitionFirst, 8},   // H100: 2^30 66.64 ms (a 2 % tie); H200 sort-first
      {5, false, 0, DistributedScheme::PartitionFirst, 4},
      {5, true, 0, DistributedScheme::PartitionFirst, 4},
  };

  // The pieces of a scheme that runs where its row names the other (a forced scheme, or a
  // partition, which always partitions first): the rows' count.
  static constexpr int kDefaultPieces = 4;

  // How much each piece grows over the one before it. Piece k + 1 travels while piece k is sorted
  // or merged, so it may be as much larger as that work is slower than the transfer per key; the
  // first piece's transfer is the one nothing hides. Set from run 1 (4 x H200, 2^28 keys per GPU,
  // f0a1a4d): partition-first's local sort took 1.44x the exchange for keys (5.10 against 3.54 ms),
  // 1.04x for pairs (7.39 against 7.12): 1.5 and 1; sort-first's merges were faster than its
  // transfers (1.98 ms against 3.12): equal pieces. Run 2 (4 x H100, cd199d6, pieces 4) measured
  // 1.87x for keys (5.64 against 3.01 ms), 1.46x for pairs (9.04 against 6.18) and sort-first's
  // merges at 0.88x its transfers (2.48 against 2.83): larger growth for partition-first is
  // suggested, not measured; the factors stay until a run compares them.
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
