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
  static constexpr int kHistogramBlocksPerSm = 8;    // splitter histograms, copies: grid-stride
                                                     // blocks (every thread an SM holds)
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
    double growth;  // of each piece over the one before (DistributedOptions::piece_growth)
  };
  // The rows: the fastest way on uniform u32 keys (and u32 pairs) of runs 4 and 5 of issue 26, two
  // 4 x NVIDIA H200 machines (2 ranks: GPUs 0-1 of the same machine), NCCL 2.28.3, commit a402a69
  // (bench/results/nvidia-h200-x{2,4}-2026-11-27-distributed-{,pieces-}a402a69.json): run 5 swept
  // partition-first's pieces (2, 3, 4, 6, 8) beside sort-first in one call per rank count; ms of
  // the whole sort, each row's comment with the runner-up of the same run.
  //
  // Why each scheme wins where it does (the phases, each timed alone, are in the JSON and in
  // bench/NOTES-distributed.md):
  //  - Partition first: one pass by the top digit (the splitters' first histogram its counts,
  //    1.64 ms at 2^28 keys on 4 ranks), then each piece sorted by the three digits below it
  //    (4.65 ms), the exchange (2.90) hidden behind those sorts but for the first piece's. Three
  //    passes and a pass by the top digit are the four passes of one sort: it does a one-GPU sort's
  //    work, plus the splitters and the first transfer. 4 ranks: 7.11 ms against sort-first's 8.78
  //    at 2^28 (run 4), 26.81 against 36.30 at 2^30.
  //  - Sort first sorts the whole shard (four passes, 5.37 ms) before anything travels, then
  //    merges: the exchange can only hide behind the merges. It loses on uniform keys at every
  //    size measured, and on skewed keys whose second splitter round places every cut in the one
  //    hot top digit (partition-first then stages by a second pass over that digit's keys: 4
  //    ranks, 2^28 keys, 8.4-8.5 ms against sort-first:4's 9.3-9.7). Where two rounds leave a cut
  //    open, partition-first would take its class path (a count, a scan and a scatter, then
  //    whole-piece sorts of four passes; 4 ranks, 2^28 keys: 13.43 ms against sort-first:4's
  //    9.61), so a call whose options leave the scheme to it sorts first after those rounds,
  //    whatever its row says (distributed.cu, run).
  //  - Pieces: each piece costs a transfer, a histogram and three pass launches over partial
  //    tiles; more pieces shrink the first transfer, the one nothing hides. At 2^26 keys a rank 2
  //    or 3 pieces win; at 2^28 keys 4 (6 for pairs, whose transfers are twice as long).
  //
  //   ranks kind   2^26 keys/rank                2^28                           2^30
  //   2     keys   partition-first:2 2.15        partition-first:4 6.82         partition-first:4 26.37
  //                  (sf:1 2.29, pf:4 2.35)        (pf:6 7.09, sf:1 7.85)         (pf:6 26.71)
  //   2     pairs  partition-first:2 3.03        partition-first:6 10.17        partition-first:6 40.77
  //                  (pf:4 3.10, sf:1 3.49)        (pf:4 10.33, sf:1 12.14)       (pf:4 41.64)
  //   4     keys   partition-first:3 2.87        partition-first:4 7.24         partition-first:4 26.81
  //                  (sf:4 3.02, pf:4 3.19)        (pf:3 7.37, pf:6 7.50)         (pf:6 26.57, pf:3 27.59)
  //   4     pairs  partition-first:3 3.48        partition-first:6 10.83        partition-first:6 40.29
  //                  (pf:4 3.73, sf:4 4.31)        (pf:8 10.99, pf:4 11.03)       (pf:4 43.02)
  // 4 ranks keep 4 pieces at 2^30 keys (6 measured 0.9 % faster there, within the runs' spread:
  // pf:4 was 7.11 ms in run 4 and 7.24 in run 5 at 2^28). 3 ranks take the 2-rank rows (not
  // measured); 5 ranks and more partition first, as sort-first merges at most 4 runs (not
  // measured past 4 ranks either). One rank sorts first: with no cut, partition-first stages its
  // shard by class for nothing before the whole sort (one H200, run 15, f89a8ea: 2^28 keys 7.27
  // ms against sort-first's 5.80, pairs 10.85 against 8.72; 1.25-1.40x at 2^26 to 2^29 for every
  // distribution; one GPU's sort alone: 5.18 and 7.48).
  static constexpr Choice kChoices[] = {
      {1, false, 0, DistributedScheme::SortFirst, 1, 1.0},
      {1, true, 0, DistributedScheme::SortFirst, 1, 1.0},
      {2, false, 0, DistributedScheme::PartitionFirst, 2, 1.5},
      {2, false, 28, DistributedScheme::PartitionFirst, 4, 1.5},
      {2, true, 0, DistributedScheme::PartitionFirst, 2, 1.0},
      {2, true, 28, DistributedScheme::PartitionFirst, 6, 1.5},
      {4, false, 0, DistributedScheme::PartitionFirst, 3, 1.5},
      {4, false, 28, DistributedScheme::PartitionFirst, 4, 1.5},
      {4, true, 0, DistributedScheme::PartitionFirst, 3, 1.0},
      {4, true, 28, DistributedScheme::PartitionFirst, 6, 1.25},
      {5, false, 0, DistributedScheme::PartitionFirst, 4, 1.5},
      {5, true, 0, DistributedScheme::PartitionFirst, 4, 1.0},
  };

  // The pieces of a scheme that runs where its row names the other (a forced scheme, or a
  // partition, which always partitions first): the rows' count.
  static constexpr int kDefaultPieces = 4;

  // How much each piece grows over the one before it (the rows' last column; this, for a scheme
  // that runs where its row names the other). Piece k + 1 travels while piece k is sorted or
  // merged, so it may be as much larger as that work is slower than the transfer per key; the
  // first piece's transfer is the one nothing hides. Set from run 1 (4 x H200, 2^28 keys per GPU,
  // f0a1a4d): partition-first's local sort took 1.44x the exchange for keys (5.10 against 3.54 ms),
  // 1.04x for pairs (7.39 against 7.12): 1.5 and 1; sort-first's merges were faster than its
  // transfers (1.98 ms against 3.12): equal pieces. Run 15 swept it (bench-multigpu --ways
  // partition-first:P:growth; 2 and 4 x H100, 2 x H200): keys gained nothing from 2 or 2.5 at 4 or
  // 5 pieces (what the call spends past its compute is NCCL's share of the SMs, not the first
  // transfer); pairs on 2 ranks from 2^28 keys gained 0.3 ms from 1.5 where the transfers are fast
  // (registered workspaces on 2 x H200: 9.00-9.01 ms against 9.32-9.33; peer copies on 2 x H100:
  // 10.09-10.26 against 10.48-10.52; over NCCL unregistered on 2 x H100 the same either way; 2 of
  // 4 x H200, registered: 8.82-8.90 against 9.17-9.26), so that row takes 1.5; on 4 ranks 1.25
  // (4 x H200, registered: 9.79-9.91 ms against 10.04-10.20 at 1, 9.97-10.15 at 1.5).
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
