// radix-split's trace rows, which are also the rows its kernels name to the probe (radix_split.cuh),
// and the trace's width; shared by the kernels, the plan and CPU reference and the stepped form.
#pragma once
#include <algorithm>
#include <cstdint>

#include "lab/algorithms/radix/radix_shape.h"
#include "lab/model/trace.h"

namespace primlab::lab::radix {

// The keys (d_in), the second buffer and the output, the max tree (find_max_kernel's shared memory)
// and the max, the bit arrays, the scan's shared memory and block sums, and the scatter's registers.
// A kernel's `in` and `out` are whichever key rows the pass reads and writes (the stepped form maps
// them launch by launch).
enum SplitRow : int {
  kSplitIn = kRowMain,
  kSplitAlt = kStdRows,
  kSplitOut,
  kSplitTree,
  kSplitMax,
  kSplitBit,
  kSplitFalse,
  kSplitFalseScan,
  kSplitTemp,
  kSplitSums,
  kSplitTotal,
  kSplitTrue,
  kSplitDest,
  kSplitRows
};
static_assert(kSplitRows <= kKernelRows, "every row is one the probe can name");

// The row width: the keys, find_max_kernel's blocks of tree_block(block, n) words, and the scan's
// shared memory and sums.
inline std::int32_t split_width(std::int32_t n, std::int32_t block) {
  const int tree = tree_block(block, n);
  return std::int32_t(std::max<std::int64_t>({n, blocks_for(n, tree) * tree, scan_row_width(n, block)}));
}

}  // namespace primlab::lab::radix
