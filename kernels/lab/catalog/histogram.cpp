// Histograms (the lecture, seed 004): global atomicAdd, per-block shared-memory histograms, and the
// lecture's per-warp sub-histograms with the 5-bit thread tag. bin = x mod bins (int32: the
// non-negative remainder), 2 to 256 bins. Atomic order is not deterministic: the CPU and CUDA traces
// agree on every bin, partial histogram and counter, not on the tag bits or per-sample retries.
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(histogram_atomic)
PRIMLAB_DECLARE_STEPPER(histogram_shared)
PRIMLAB_DECLARE_STEPPER(histogram_tagged)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_histograms(std::vector<Algorithm>& v) {
  v.push_back({"histogram-atomic", "histogram", "Histogram: global atomicAdd",
               "Every sample does atomicAdd(&bins[x mod bins], 1) in global memory; lanes of a warp on one bin "
               "collide and serialise.",
               kOptBins | kOptU32, 4096, 1, 1024, false, false, nullptr, PRIMLAB_STEPPERS(histogram_atomic),
               TimedForm{"histogram_even", {"u8", "u32"}, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_histogram, timed_histogram_atomic)}});
  v.push_back({"histogram-shared", "histogram", "Histogram: per-block shared-memory histograms",
               "Each block counts into its own shared-memory histogram with atomicAdd, then adds it to the global "
               "bins: one global atomic per bin and block.",
               kOptBins | kOptU32, 4096, 1, 1024, false, false, nullptr, PRIMLAB_STEPPERS(histogram_shared),
               TimedForm{"histogram_even", {"u8", "u32"}, kTimedDefaultBlock, false, PRIMLAB_TIMED(timed_bytes_histogram, timed_histogram_shared)}});
  v.push_back({"histogram-tagged", "histogram", "Histogram: per-warp sub-histograms with the thread tag (lecture)",
               "No atomics: each warp counts into its own sub-histogram, the 5 high bits tag the last writer, a lane "
               "writes, checks and retries; partial histograms per block, then a merge kernel.",
               kOptBins | kOptU32, 4096, 1, 1024, false, false, nullptr, PRIMLAB_STEPPERS(histogram_tagged)});
}
}  // namespace primlab::registry
