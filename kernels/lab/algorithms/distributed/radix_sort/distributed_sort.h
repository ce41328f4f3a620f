// What the distributed radix sort on G virtual GPUs shares between its kernels and host code
// (distributed_sort.cuh), its plan and CPU reference (distributed_sort.cpp) and its tests: the rows
// the kernels name, the kernels' arguments (the shards, a round of the splitter search, the key
// classes), a cut's state, and the classes the final cuts define. Plain C++: the CPU-only build
// reads it too.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::lab {

constexpr int kDistMaxGpus = 8;
// Classes of keys a partition sorts into: each cut adds at most two boundaries.
constexpr int kDistMaxClasses = 2 * kDistMaxGpus - 1;

// The rows the probe names.
enum DistributedRow : int {
  kDistKeys = kRowMain,  // GPU r holds shard r
  kDistCell = kStdRows,  // each key's histogram cell in this round (registers; -1: not counted)
  kDistGpuHist,          // gpu_hist[g * cells + c]: GPU g's counts
  kDistHist,             // hist[c]: the sum over the GPUs (the all-reduce)
  kDistCounts,           // keys per GPU after the round's cuts
  kDistEdges,            // edges[s]: where GPU s starts in the global order (G + 1)
  kDistDest,             // each key's destination GPU (registers)
  kDistPart,             // each shard in class order, staged for the exchange
  kDistBytes,            // bytes[r * G + s]: bytes GPU r sends GPU s
  kDistRecv,             // what each GPU received, in sender order
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

// The classes of keys the cuts define, in key order: class c holds the span images x with
// lower[c] <= x < lower[c + 1]. Every cut's boundary is a class boundary, and a tie's run of equal
// keys is a class of its own; so a class's keys go to one GPU, dest[c], except a run's, which go
// by their global position: run_start[c] + run_before[c][g] + the key's rank in its class on GPU g.
struct Classes {
  int count = 0, gpus = 0;
  std::uint32_t lower[kDistMaxClasses] = {};
  std::int32_t dest[kDistMaxClasses] = {};
  std::int32_t run_start[kDistMaxClasses] = {};
  std::int32_t run_before[kDistMaxClasses][kDistMaxGpus] = {};
  std::int32_t edges[kDistMaxGpus + 1] = {};  // GPU s holds the global positions [edges[s], edges[s + 1])
};

// The classes of the final cuts of n keys on `gpus` GPUs, keys read as `span`-bit images.
inline Classes make_classes(const Cut* cuts, int gpus, int span, std::int32_t n) {
  const std::uint64_t end = std::uint64_t(1) << span;
  std::vector<std::uint64_t> lower{0};
  for (int s = 0; s + 1 < gpus; ++s) {
    const Cut& c = cuts[s];
    if (c.bound < end) lower.push_back(c.bound);
    if (c.tie && c.bound + 1 < end) lower.push_back(c.bound + 1);
  }
  std::sort(lower.begin(), lower.end());
  lower.erase(std::unique(lower.begin(), lower.end()), lower.end());
  Classes k;
  k.count = int(lower.size());
  k.gpus = gpus;
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
