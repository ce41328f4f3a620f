// The rows a reduction kernel names to its probe (util/probe.cuh). The stepped drivers map them
// to the trace's rows launch by launch: a pass reads x or a partial-sum array and writes the other
// one (or d_out), so `in` and `out` move while the kernel's code stays the same.
#pragma once

namespace primlab::lab {

enum ReduceRow : int {
  kReduceIn,        // the array the pass reduces
  kReduceOut,       // one value per block
  kReduceShared,    // the block's shared array (sdata[])
  kReduceRegs,      // one register per thread (the shuffle's v, reduce7's sum)
  kReduceWarpSums,  // the shuffle's s_warp[]
};

}  // namespace primlab::lab
