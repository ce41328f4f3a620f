// What the distributed radix sort on G virtual GPUs shares between its kernels and host code
// (distributed_sort.cuh), its plan and CPU reference (distributed_sort.cpp) and its tests: the
// scheme and pieces the library would take, the rows the kernels name, the kernels' arguments
// (the shards, a round of the splitter search, the key classes), a cut's state, the pieces'
// bounds and the classes the final cuts and bounds define. Plain C++: the CPU-only build reads it
// too.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::lab {

constexpr int kDistMaxGpus = 8;
// The pieces every GPU's range is cut into, at most: the library's tuned count for keys from 2^28
// a rank on 2 to 8 ranks (kernels/tuning/distributed.cuh; 2 or 3 below). The library cuts no
// piece below 2^20 keys; the lab keeps the count, so that its small inputs show the pipeline.
constexpr int kDistPieces = 4;
// Classes of keys a partition sorts into: each cut adds at most two boundaries, each bound between
// two pieces of a GPU's range one.
constexpr int kDistMaxClasses = 2 * kDistMaxGpus - 1 + kDistMaxGpus * (kDistPieces - 1);

// The two ways the library sorts (primlab/distributed.h). Partition first: every GPU partitions
// its shard by destination, the pieces travel, every GPU sorts each piece it receives. Sort
// first: every GPU sorts its shard, whose runs for the other GPUs then lie side by side, the
// pieces travel, every GPU merges the sorted runs of each piece.
enum class DistScheme { PartitionFirst, SortFirst };

// The library's choice for keys (kernels/tuning/distributed.cuh) is partition first on every rank
// count the lab steps (2 to 8) and every size (one rank sorts first). The most GPUs sort first runs
// on (its merge joins at most 4 runs): partition first on up to this many GPUs turns to sort first
// where its splitter rounds leave a cut open (a first round with open cuts in more than one bucket
// or in the one that holds every key, or a second, which refines the one bucket that holds them,
// still with one open or a run of equal keys cut by position), as the library's sort does when its
// options leave the scheme to it: partition first would stage such keys by class and sort whole
// pieces.
constexpr int kDistSortFirstMaxGpus = 4;

// The rows the probe names.
enum DistributedRow : int {
  kDistKeys = kRowMain,  // GPU r holds shard r
  kDistCell = kStdRows,  // each key's histogram cell in this round (registers; -1: not counted)
  kDistGpuHist,          // gpu_hist[g * cells + c]: GPU g's counts
  kDistHist,             // hist[c]: the sum over the GPUs (the all-reduce)
  kDistCounts,           // keys per GPU after the round's cuts
  kDistEdges,            // edges[s]: where GPU s starts in the global order (G + 1)
  kDistDest,             // each key's destination GPU (registers)
  kDistPart,             // each shard staged for the exchange: in class order, or sorted (sort first)
  kDistBytes,            // bytes[(r * G + s) * P + j]: bytes GPU r sends GPU s in piece j
  kDistRecv,             // what each GPU received: piece by piece, each piece in sender order
  kDistSorted,           // each GPU's keys sorted: the output
};

// Shard r holds the keys [start[r], start[r + 1]) of the global input order.
struct Shards {
  std::int32_t start[kDistMaxGpus + 1];
};

// One round of the splitter search, as its kernels take it: the histogram of the digit bits
// [rest, rest + bits) of the span among the keys whose top `level` bits are one of the prefixes
// (round 0: every key, level 0), cell q * 2^bits + digit for the q-th prefix.
struct Round {
  int level = 0, bits = 0, rest = 0;
  int queries = 0;
  std::uint32_t prefix[kDistMaxGpus - 1] = {};
};

// One cut between GPU s and s + 1, carried from round to round.
struct Cut {
  std::uint32_t prefix = 0;    // the bucket that still holds the cut: the top `level` bits of the span
  std::int32_t below = 0;      // keys before that bucket in the global order
  std::int32_t at = 0;         // the cut's global position so far: GPU s + 1 starts there
  std::int32_t resolved = 0;   // 1: placed for good
  std::int32_t tie = 0;        // 1: inside a run of keys equal to `bound`, cut by position
  std::uint64_t bound = 0;     // on a bucket edge: the keys below it go left; a tie: the run's value
  std::int32_t run_start = 0;  // a tie: keys before the run in the global order
  std::int32_t run_before[kDistMaxGpus] = {};  // a tie: keys of the run on the GPUs before g
};

// The classes of keys the cuts and the pieces' bounds define, in key order: class c holds the span
// images x with lower[c] <= x < lower[c + 1]. Every cut's boundary is a class boundary, and a tie's
// run of equal keys is a class of its own; so a class's keys go to one GPU, dest[c], except a
// run's, which go by their global position: run_start[c] + run_before[c][g] + the key's rank in its
// class on GPU g. Each GPU d's range is cut into pieces by the values bound[d][0 .. bounds[d]): a
// key x that goes to d is in its piece piece_of(d, x), the number of d's bounds at most x; those
// bounds are class boundaries too, so a class's keys for one GPU are in one piece, and the classes
// in order are in (GPU, piece) order.
struct Classes {
  int count = 0, gpus = 0;
  int pieces = 1;  // the most pieces of any GPU: 1 + its bounds
  std::int32_t bounds[kDistMaxGpus] = {};
  std::uint32_t bound[kDistMaxGpus][kDistPieces - 1] = {};
  std::uint32_t lower[kDistMaxClasses] = {};
  std::int32_t dest[kDistMaxClasses] = {};
  std::int32_t run_start[kDistMaxClasses] = {};
  std::int32_t run_before[kDistMaxClasses][kDistMaxGpus] = {};
  std::int32_t edges[kDistMaxGpus + 1] = {};  // GPU s holds the global positions [edges[s], edges[s + 1])
};

// An inner edge of a bucket the splitter search counted: the keys with images below `value` are
// the first `position` keys of the global order (as the library's SplitterSearch::Edge).
struct SearchEdge {
  std::uint32_t value = 0;
  std::int32_t position = 0;
};

// What partition first's rule reads after a round (the host code and the model alike): the
// buckets that still hold a cut of `cuts[0..count)`, whether one of them is cut by position, and,
// after the first round (whose inner edges are `edges`), whether one bucket holds every one of the
// n keys (each of those edges lies at 0 or at n).
inline int open_buckets(const Cut* cuts, int count) {
  std::vector<std::uint32_t> open;
  for (int c = 0; c < count; ++c)
    if (!cuts[c].resolved && std::find(open.begin(), open.end(), cuts[c].prefix) == open.end())
      open.push_back(cuts[c].prefix);
  return int(open.size());
}
inline bool any_tie(const Cut* cuts, int count) {
  return std::any_of(cuts, cuts + count, [](const Cut& c) { return c.tie != 0; });
}
inline bool one_bucket_holds_every_key(const std::vector<SearchEdge>& edges, std::int32_t n) {
  return std::all_of(edges.begin(), edges.end(), [n](const SearchEdge& e) { return e.position == 0 || e.position == n; });
}

// The pieces' bounds of every GPU, as the library's piece_bounds cuts them: GPU d's range of the
// global order, [range[d], range[d + 1]), is cut near targets whose pieces grow (weights 8, 12,
// 18, 27 for the library's growth 1.5, in integers; or equal) at the edge nearest each target
// among the edges strictly inside the range (the first in search order on a tie); a range with no
// edge inside keeps one piece. Sorted, without repeats.
inline std::vector<std::vector<std::uint32_t>> piece_bounds(const std::vector<SearchEdge>& edges,
                                                            const std::int32_t* range, int gpus, int pieces,
                                                            bool grow) {
  std::vector<std::int64_t> cum{0};  // the targets' fractions of a range, times cum.back()
  for (int j = 0; j < pieces; ++j) {
    std::int64_t w = 1;
    if (grow)
      for (int k = 0; k + 1 < pieces; ++k) w *= k < j ? 3 : 2;
    cum.push_back(cum.back() + w);
  }
  const std::int64_t total = cum.back();
  std::vector<std::vector<std::uint32_t>> bounds(static_cast<std::size_t>(gpus));
  for (int d = 0; d < gpus; ++d) {
    const std::int64_t lo = range[d], hi = range[d + 1];
    std::vector<const SearchEdge*> inside;
    for (const SearchEdge& e : edges)
      if (lo < e.position && e.position < hi) inside.push_back(&e);
    if (inside.empty()) continue;
    std::vector<std::uint32_t>& b = bounds[std::size_t(d)];
    for (int j = 1; j < pieces; ++j) {
      const std::int64_t target = lo * total + cum[std::size_t(j)] * (hi - lo);
      auto off = [&](const SearchEdge* e) { return std::abs(std::int64_t(e->position) * total - target); };
      const SearchEdge* best = inside.front();
      for (const SearchEdge* e : inside)
        if (off(e) < off(best)) best = e;
      b.push_back(best->value);
    }
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
  }
  return bounds;
}

// The classes of the final cuts of n keys on `gpus` GPUs, keys read as `span`-bit images, and of
// the pieces' bounds of every GPU (bounds[d], sorted).
inline Classes make_classes(const Cut* cuts, int gpus, int span, std::int32_t n,
                            const std::vector<std::vector<std::uint32_t>>& bounds) {
  const std::uint64_t end = std::uint64_t(1) << span;
  std::vector<std::uint64_t> lower{0};
  for (int s = 0; s + 1 < gpus; ++s) {
    const Cut& c = cuts[s];
    if (c.bound < end) lower.push_back(c.bound);
    if (c.tie && c.bound + 1 < end) lower.push_back(c.bound + 1);
  }
  for (const std::vector<std::uint32_t>& b : bounds) lower.insert(lower.end(), b.begin(), b.end());
  std::sort(lower.begin(), lower.end());
  lower.erase(std::unique(lower.begin(), lower.end()), lower.end());
  Classes k;
  k.count = int(lower.size());
  k.gpus = gpus;
  for (int d = 0; d < gpus && d < int(bounds.size()); ++d) {
    const std::vector<std::uint32_t>& b = bounds[std::size_t(d)];
    k.bounds[d] = std::int32_t(b.size());
    std::copy(b.begin(), b.end(), k.bound[d]);
    k.pieces = std::max(k.pieces, 1 + k.bounds[d]);
  }
  for (int c = 0; c < k.count; ++c) {
    k.lower[c] = std::uint32_t(lower[std::size_t(c)]);
    const Cut* run = nullptr;
    int left = 0;  // cuts the whole class lies right of
    for (int s = 0; s + 1 < gpus; ++s) {
      const Cut& cut = cuts[s];
      if (cut.tie && cut.bound == lower[std::size_t(c)]) run = &cut;
      left += cut.tie ? cut.bound + 1 <= lower[std::size_t(c)] : cut.bound <= lower[std::size_t(c)];
    }
    k.dest[c] = run ? -1 : left;
    if (run) {
      k.run_start[c] = run->run_start;
      std::copy(run->run_before, run->run_before + gpus, k.run_before[c]);
    }
  }
  k.edges[0] = 0;
  for (int s = 0; s + 1 < gpus; ++s) k.edges[s + 1] = cuts[s].at;
  k.edges[gpus] = n;
  return k;
}

// The piece of GPU d's range a key of image x that goes to d is in.
#ifdef __CUDACC__
__host__ __device__
#endif
inline int piece_of(const Classes& k, int d, std::uint32_t x) {
  int j = 0;
  while (j < k.bounds[d] && k.bound[d][j] <= x) ++j;
  return j;
}

// The bits the keys differ in: those below the highest bit where two keys differ (0: all equal).
// The lab sorts those bits of the radix images (the same bits: flipping a sign bit flips it in
// every key), so that small keys read in a few digits.
inline int span_of(const std::vector<std::uint32_t>& words) {
  std::uint32_t diff = 0;
  for (std::uint32_t w : words) diff |= w ^ words.front();
  int span = 0;
  while (span < 32 && (diff >> span) != 0) ++span;
  return span;
}

// The threads of one virtual GPU's block: one a key of its widest shard or range, at most 1024
// (a block of fewer loops).
inline int gpu_threads(std::int32_t widest) { return int(std::min<std::int32_t>(std::max<std::int32_t>(widest, 1), 1024)); }

}  // namespace primlab::lab
