// Radix partition (seed 003): a histogram of a bit-field digit, a prefix scan into partition offsets,
// and the reorder, with atomic offsets (the seed: not stable, not deterministic) or stable (per-block
// histograms [digit][block], in-order block writes). Partitions = bins (2 to 4096, a power of two),
// digit = bits [digit_start, digit_start + log2 bins) of the key's bit pattern.
#include "lab/catalog/families.h"

namespace primlab::steppers {
PRIMLAB_DECLARE_STEPPER(partition_atomic)
PRIMLAB_DECLARE_STEPPER(partition_stable)
}  // namespace primlab::steppers

namespace primlab::registry {
void add_partitions(std::vector<Algorithm>& v) {
  v.push_back({"partition-atomic", "partition", "Radix partition with atomic offsets (seed 003)",
               "Histogram of a bit-field digit (bfe) with shared atomicAdd, prefix scan into offsets, reorder with "
               "atomicAdd on each partition's cursor: grouped by digit, not stable.",
               kOptBins | kOptU32 | kOptDigitStart, 4096, 1, 1024, false, false, nullptr, PRIMLAB_STEPPERS(partition_atomic)});
  v.push_back({"partition-stable", "partition", "Stable radix partition",
               "Per-block digit histograms stored [digit][block], one scan over them, each block writes its keys in "
               "order: a stable counting sort by digit.",
               kOptBins | kOptU32 | kOptDigitStart, 4096, 1, 1024, false, true, nullptr, PRIMLAB_STEPPERS(partition_stable)});
}
}  // namespace primlab::registry
