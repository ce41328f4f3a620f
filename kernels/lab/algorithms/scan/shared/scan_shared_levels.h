// The shape of the shared-memory scan's host code (scan_shared.cuh), for the host code itself, its
// plan and CPU reference (scan_shared.cpp) and its stepped driver (scan_shared.cu): the arrays as
// the trace's rows, the levels of its recursion and its launches in order.
#pragma once
#include <cstdint>
#include <vector>

#include "lab/model/trace.h"

namespace primlab::lab {

// The rows: the result and the input (add_input.cuh's rows), the block's shared memory in logical
// order (block b's tile under elements [b * 2B, (b + 1) * 2B)), then the block sums of each level
// of the recursion, level k on row kSharedSums + k (the workspace, one level a row).
enum SharedScanRow : int { kSharedOut = kRowMain, kSharedIn = kStdRows, kSharedTemp, kSharedSums };

// Tiles of 2 * block elements over n.
inline std::int64_t shared_scan_blocks(std::int64_t n, int block) { return (n + 2 * block - 1) / (2 * block); }

// The elements each level scans: n, then the block sums of the level before, down to a level of
// one tile.
inline std::vector<std::int64_t> shared_scan_levels(std::int64_t n, int block) {
  std::vector<std::int64_t> v;
  for (std::int64_t len = n;; len = shared_scan_blocks(len, block)) {
    v.push_back(len);
    if (shared_scan_blocks(len, block) <= 1) break;
  }
  return v;
}

// How many levels shared_scan_levels has.
inline int shared_scan_level_count(std::int64_t n, int block) {
  int levels = 1;
  for (std::int64_t len = n; shared_scan_blocks(len, block) > 1; len = shared_scan_blocks(len, block)) ++levels;
  return levels;
}

// One launch of the host code.
struct SharedScanLaunch {
  enum Kind { kBlockScan, kStitch, kDistribute, kInclusive } kind;
  int level;         // the recursion's level (0: the input)
  std::int64_t n;    // the elements of that level
};

// The launches in order: the block scan of each level down the recursion, then the distributes
// back up (or seed 000's kernStitch in place of the recursion), then the inclusive add.
inline std::vector<SharedScanLaunch> shared_scan_launches(std::int64_t n, int block, bool stitch, bool inclusive) {
  const std::vector<std::int64_t> levels = shared_scan_levels(n, block);
  std::vector<SharedScanLaunch> v;
  if (stitch) {
    v.push_back({SharedScanLaunch::kBlockScan, 0, n});
    if (levels.size() > 1) v.push_back({SharedScanLaunch::kStitch, 0, n});
  } else {
    for (std::size_t k = 0; k < levels.size(); ++k) v.push_back({SharedScanLaunch::kBlockScan, int(k), levels[k]});
    for (std::size_t k = levels.size() - 1; k-- > 0;) v.push_back({SharedScanLaunch::kDistribute, int(k), levels[k]});
  }
  if (inclusive) v.push_back({SharedScanLaunch::kInclusive, 0, n});
  return v;
}

// The trace rows of a launch's arrays: the kernel's in, out and sums (-1: none).
struct SharedScanArrays {
  int in = -1, out = -1, sums = -1;
};
inline SharedScanArrays shared_scan_arrays(const SharedScanLaunch& l) {
  // Level k > 0 scans level k - 1's block sums in place.
  const int data = l.level == 0 ? kSharedOut : kSharedSums + l.level - 1;
  switch (l.kind) {
    case SharedScanLaunch::kBlockScan: return {l.level == 0 ? int(kSharedIn) : data, data, kSharedSums + l.level};
    case SharedScanLaunch::kStitch:
    case SharedScanLaunch::kDistribute: return {-1, data, kSharedSums + l.level};
    case SharedScanLaunch::kInclusive: break;
  }
  return {kSharedIn, kSharedOut, -1};
}

}  // namespace primlab::lab
