// The shape of the radix sorts' scan (radix_scan.cuh) as its host code computes it, in plain C++
// so that the plans, the CPU references and the stepped forms share it: the block each level runs
// with, its block count, and where its block sums lie in the scratch.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace primlab::lab::radix {

// The rows the probe names in the scan's kernels; the stepped forms map them to their trace rows,
// level by level (scan_launch_rows).
enum ScanRow : int { kScanIn = 12, kScanOut, kScanTemp, kScanSums };

inline std::int64_t blocks_for(std::int64_t n, std::int64_t per_block) { return (n + per_block - 1) / per_block; }

// A shared-memory tree's block: the largest power of two within `block`, and no larger than the
// power of two that covers `count` (a short input does not launch a tree of zeros).
inline int tree_block(int block, std::int64_t count) {
  int b = 1;
  while (2 * b <= block && b < count) b *= 2;
  return b;
}
// The block scan_block_kernel runs with on n words: two words a thread.
inline int scan_tree(int block, std::int64_t n) { return tree_block(block, (n + 1) / 2); }

// One level of the scan: n words in blocks of 2 * tree, read from `in_at` of its array (level 0:
// the caller's; the others: the sums of the level before) and summed into the scratch from
// `sums_at` on.
struct ScanLevel {
  std::int64_t n = 0;
  int tree = 1;
  std::int64_t blocks = 1, in_at = 0, sums_at = 0;
};

// The levels radix_exclusive_scan(n, block) runs, the first first; its launches are each level's
// scan_block_kernel in this order, then add_sums_kernel for every level but the last, last first.
inline std::vector<ScanLevel> scan_levels(std::int64_t n, int block) {
  std::vector<ScanLevel> v;
  std::int64_t in_at = 0, sums_at = 0;
  for (;;) {
    ScanLevel l;
    l.n = n;
    l.tree = scan_tree(block, n);
    l.blocks = blocks_for(n, 2 * l.tree);
    l.in_at = in_at;
    l.sums_at = sums_at;
    v.push_back(l);
    if (l.blocks <= 1) return v;
    in_at = sums_at;
    sums_at += l.blocks;
    n = l.blocks;
  }
}

// The scratch the scan's levels take: each level's block sums, one level after another.
inline std::size_t radix_scan_scratch_words(std::int64_t n, int block) {
  const std::vector<ScanLevel> v = scan_levels(n, block);
  return std::size_t(v.back().sums_at + v.back().blocks);
}

// The words a trace row needs to show the scan: every level's shared memory (its blocks' 2 * tree
// words each) and the sums.
inline std::int64_t scan_row_width(std::int64_t n, int block) {
  std::int64_t w = std::int64_t(radix_scan_scratch_words(n, block));
  for (const ScanLevel& l : scan_levels(n, block)) w = std::max(w, l.blocks * 2 * l.tree);
  return w;
}

// [SECTION] The stepped forms' rows, launch by launch
// A launch's rows as a stepped form hands them to the recording probe: the kernel's row r is the
// trace's rows[r] (-1: none), from its element at[r].
constexpr int kKernelRows = 16;
struct LaunchRows {
  std::int8_t rows[kKernelRows];
  std::int32_t at[kKernelRows];
};
// Every kernel row to the trace row of its number, from element 0.
inline LaunchRows identity_rows(int trace_rows) {
  LaunchRows m;
  for (int r = 0; r < kKernelRows; ++r) {
    m.rows[r] = std::int8_t(r < trace_rows ? r : -1);
    m.at[r] = 0;
  }
  return m;
}
// Appends the rows of radix_exclusive_scan(n, block)'s launches, in their order, to `out`: the
// scan's in, out, temp and sums on the trace rows given (levels past the first scan the sums row
// in place); the other kernel rows as in `base`.
inline void scan_launch_rows(std::vector<LaunchRows>& out, const LaunchRows& base, std::int64_t n, int block,
                             int in_row, int out_row, int temp_row, int sums_row) {
  const std::vector<ScanLevel> levels = scan_levels(n, block);
  auto level_rows = [&](std::size_t L) {
    LaunchRows m = base;
    const ScanLevel& l = levels[L];
    m.rows[kScanIn] = std::int8_t(L ? sums_row : in_row);
    m.rows[kScanOut] = std::int8_t(L ? sums_row : out_row);
    m.at[kScanIn] = m.at[kScanOut] = std::int32_t(L ? l.in_at : 0);
    m.rows[kScanTemp] = std::int8_t(temp_row);
    m.at[kScanTemp] = 0;
    m.rows[kScanSums] = std::int8_t(sums_row);
    m.at[kScanSums] = std::int32_t(l.sums_at);
    return m;
  };
  for (std::size_t L = 0; L < levels.size(); ++L) out.push_back(level_rows(L));
  for (std::size_t L = levels.size() - 1; L-- > 0;) out.push_back(level_rows(L));
}

}  // namespace primlab::lab::radix
