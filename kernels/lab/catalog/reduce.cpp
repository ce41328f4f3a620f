// Reductions: the lecture's reduce1..reduce5 (seed 004) and the warp-shuffle reduction, each with
// a second pass over the blocks' partial sums.
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(reduce1)
PRIMLAB_DECLARE_STEPPER(reduce2)
PRIMLAB_DECLARE_STEPPER(reduce3)
PRIMLAB_DECLARE_STEPPER(reduce4)
PRIMLAB_DECLARE_STEPPER(reduce5)
PRIMLAB_DECLARE_STEPPER(reduce_shuffle)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_reductions(std::vector<Algorithm>& v) {
  constexpr unsigned kOpts = kOptFloat | kOptU32;
  v.push_back({"reduce1", "reduce", "reduce1: interleaved addressing",
               "Tree sum in shared memory, if (tid % (2*s) == 0): active threads are scattered, so every warp "
               "diverges at every level.",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce1),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce1)}});
  v.push_back({"reduce2", "reduce", "reduce2: strided index",
               "index = 2*s*tid packs the active threads into the first warps (little divergence), but the "
               "stride-2s addresses conflict in the banks (with blocks of 64 threads or more).",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce2),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce2)}});
  v.push_back({"reduce3", "reduce", "reduce3: sequential addressing",
               "s from B/2 down: data[tid] += data[tid+s] on consecutive words, conflict-free; half the threads "
               "idle from the first level.",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce3),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce3)}});
  v.push_back({"reduce4", "reduce", "reduce4: first add during load",
               "Each block sums 2B elements, adding the two halves while loading: half the blocks, no thread idle "
               "at the first add.",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce4),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce4)}});
  v.push_back({"reduce5", "reduce", "reduce5: last warp unrolled",
               "reduce4 with the last six levels unrolled in one warp: no barrier, no branch, volatile shared "
               "memory, warp-synchronous.",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce5),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce5)}});
  v.push_back({"reduce-shuffle", "reduce", "Warp-shuffle reduction",
               "First add during load, then __shfl_down_sync in registers (no shared memory), one warp sum per "
               "warp combined by warp 0.",
               kOpts, 4096, 1, 1024, true, true, nullptr, PRIMLAB_STEPPERS(reduce_shuffle),
               TimedForm{"reduce_sum", kTimedNumeric, kTimedDefaultBlock, true, PRIMLAB_TIMED(timed_bytes_reduce, timed_reduce_shuffle)}});
}
}  // namespace primlab::registry
