// The facts of a distributed radix sort on G virtual GPUs that its plan, CPU stepper
// (distributed_sort.cpp) and CUDA stepper (distributed_sort_traced.cu) share: the trace's rows,
// shards, splitter rounds, destinations and sends. Tests read them too.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/catalog.h"

#ifdef __CUDACC__
#define PRIMLAB_HD __host__ __device__
#else
#define PRIMLAB_HD
#endif

namespace primlab::steppers::distributed {

// The trace's rows after the standard three.
enum Rows : int {
  kDigit = kStdRows,  // top digit of each key
  kGpuHist,           // per-GPU histograms [gpu][digit]
  kGlobalHist,        // the all-reduced histogram
  kCounts,            // keys per GPU the current splitters give
  kEdges,             // where GPU s starts in the global order (G + 1 values)
  kDest,              // destination GPU of each key
  kPart,              // each shard grouped by destination
  kBytes,             // bytes sent [from][to]
  kRecv,              // each GPU's received keys
  kSorted,            // each GPU's keys sorted
  kRefine,            // the refined histogram [bucket][next digit] (only when a round refines)
};

// A key word as the radix digits read it: uint32 as it is, int32 with the sign bit flipped (both
// steppers).
PRIMLAB_HD inline std::uint32_t radix_key(std::uint32_t w, ElemType t) { return t == ElemType::I32 ? w ^ 0x80000000u : w; }

// One round of the splitter search: the histogram of one digit among the keys of the queried
// buckets (round 0: the top digit of every key), and where the cuts stand after it.
struct Round {
  int level = 0;                          // bits of the span fixed before this round's digit
  int bits = 0;                           // the digit's width (0: every key is equal)
  std::vector<std::uint32_t> queries;     // the buckets (top `level` bits of the span) counted
  std::vector<std::int32_t> gpu_hist;     // [gpu][query][digit]
  std::vector<std::int32_t> hist;         // [query][digit], the all-reduced sum
  std::vector<std::int32_t> slot;         // per key: its [query][digit] cell, -1 outside the queries
  std::vector<std::int32_t> cut_slot;     // per cut walked this round: the cell it landed in (-1: none)
  std::vector<std::int32_t> edges;        // G + 1: where GPU s starts after this round
  std::int32_t walked = 0;                // histogram cells the cuts walked
  int at_edge = 0, refined = 0, ties = 0;  // cuts placed on a bucket edge, sent to the next digit, split by position
};

struct Model {
  std::int32_t n = 0;
  int gpus = 0, digit_bits = 0;
  int span = 0;                           // bits below the highest bit where two keys differ
  std::int32_t slack = 0;                 // a cut this close to a bucket edge takes the edge
  std::vector<std::uint32_t> keys;        // radix keys (int32: sign bit flipped)
  std::vector<std::int32_t> shard;        // G + 1: shard r = [shard[r], shard[r + 1])
  std::vector<Round> rounds;
  std::vector<std::int32_t> edges;        // G + 1: GPU s holds global positions [edges[s], edges[s + 1])
  std::vector<std::int32_t> dest;         // per key
  std::vector<std::int32_t> send;         // [from][to] keys
};

// cfg.bins GPUs, cfg.digit_bits, cfg.type; input: n words.
Model model(const StepConfig& cfg, const std::vector<std::uint32_t>& input);
// Largest range / mean of the ranges between edges (1 for no keys).
double balance(const std::vector<std::int32_t>& edges);

}  // namespace primlab::steppers::distributed
