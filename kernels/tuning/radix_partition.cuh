// Tuning of radix partition. Its passes are radix sort's Onesweep passes (RadixSortTuning);
// this holds only what is partition-specific.
#pragma once

namespace primlab::detail {

struct RadixPartitionTuning {
  // Offsets of a 9- to 12-bit partition: one thread per partition boundary, binary search in
  // the partitioned output (at most 4097 threads x 31 probes, a few microseconds). 256 threads:
  // the usual small-kernel block; not measured (off the timed 8-bit path).
  static constexpr int kOffsetThreads = 256;
};

}  // namespace primlab::detail
