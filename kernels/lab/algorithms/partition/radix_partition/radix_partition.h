// What the radix partition's kernels and host code (radix_partition.cuh), its plans and CPU
// references (radix_partition.cpp) and its tests share: the rows the kernels name, and the grid
// the host code launches. Plain C++: the CPU-only build reads it too.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/model/trace.h"

namespace primlab::lab {

// The rows the probe names. Both variants: the keys, each key's digit (a register), each block's
// shared histogram, the counts the scan reads and the offsets it writes (the same rows, so one
// scan kernel serves both); then the atomic variant's cursors and output, or the stable one's
// output.
enum PartitionRow : int {
  kPartKeys = kRowMain,
  kPartDigit = kStdRows,
  kPartShared,         // sh_hist: block b's counters at [b * P, (b + 1) * P)
  kPartCounts,         // atomic: hist[d]; stable: counts[d * blocks + b]
  kPartOffsets,        // the exclusive scan of kPartCounts
  kPartFill,           // atomic: fill[d], the keys of digit d placed so far
  kPartAtomicOut,      // atomic: out
  kPartStableOut = kPartFill,  // stable: out
};

// Partitions P: a power of two from 2 to 4096.
constexpr std::int32_t kPartitionMaxParts = 4096;
// Shared counters the whole grid holds (blocks x P): the lab draws every block's, so a larger
// input takes more rounds per block instead of more blocks.
constexpr std::int32_t kPartitionMaxCells = 8192;

// The grid of n keys in blocks of `block` threads and P = 2^bits partitions: block b owns the tile
// of rounds x block consecutive keys from b * rounds * block, one key per thread and round.
struct PartitionGrid {
  std::int32_t blocks = 0, rounds = 0;
};

inline PartitionGrid partition_grid(std::int64_t n, int block, int bits) {
  const std::int64_t parts = std::int64_t(1) << bits;
  const std::int64_t most = std::max<std::int64_t>(1, kPartitionMaxCells / parts);
  const std::int64_t blocks = std::min((n + block - 1) / block, most);
  const std::int64_t rounds = (n + blocks * block - 1) / (blocks * block);
  return {std::int32_t((n + rounds * block - 1) / (rounds * block)), std::int32_t(rounds)};
}

// The one-block scan of L counts runs min(block, L) threads.
inline int partition_scan_threads(std::int64_t L, int block) { return int(std::min<std::int64_t>(block, L)); }

}  // namespace primlab::lab
